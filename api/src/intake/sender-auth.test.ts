import { replyAddress } from '@receipts/common';
import type { DNSResolver } from 'mailauth';
import { describe, expect, it } from 'vitest';
import { alignedDomains, senderEvidence } from './sender-auth.js';

describe('alignedDomains (relaxed, by the Public Suffix List)', () => {
  it.each<[string, string, string, boolean]>([
    ['equal domains', 'shop.com', 'shop.com', true],
    ['equal but for case and a final dot', 'Shop.COM.', 'shop.com', true],
    ['a subdomain and its parent', 'mail.shop.com', 'shop.com', true],
    ['two subdomains of one organization', 'mail.shop.com', 'bounce.eu.shop.com', true],
    ['a registrable domain under co.uk and co.uk itself', 'evil.co.uk', 'co.uk', false],
    ['two registrable domains under co.uk', 'evil.co.uk', 'victim.co.uk', false],
    ['a subdomain and its parent under co.uk', 'mail.shop.co.uk', 'shop.co.uk', true],
    ['two sites of a private suffix (github.io)', 'evil.github.io', 'victim.github.io', false],
    ['a site of a private suffix and the suffix', 'evil.github.io', 'github.io', false],
    ['a subdomain of a site of a private suffix and the site', 'www.victim.github.io', 'victim.github.io', true],
    ['a domain under an unknown TLD and its subdomain', 'mail.shop.test', 'shop.test', true],
    ['two domains under an unknown TLD', 'evil.test', 'shop.test', false],
    ['a look-alike domain', 'evilshop.com', 'shop.com', false],
    ['no domain at all', '', '', false],
  ])('%s: %s and %s → %s', (_name, a, b, expected) => {
    expect(alignedDomains(a, b)).toBe(expected);
    expect(alignedDomains(b, a)).toBe(expected);
  });
});

describe('senderEvidence', () => {
  // evil.co.uk lets 127.0.0.1 send, and so does mail.shop.co.uk.
  const records: Record<string, string> = { 'evil.co.uk': 'v=spf1 ip4:127.0.0.1 -all', 'mail.shop.co.uk': 'v=spf1 ip4:127.0.0.1 -all' };
  const resolver: DNSResolver = async (name, rrtype) => {
    const record = records[name];
    if (rrtype === 'TXT' && record) return [[record]];
    throw Object.assign(new Error(`query ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  };
  const evidenceFor = (from: string, envelopeSender: string) =>
    senderEvidence(Buffer.from(`From: ${from}\r\nSubject: x\r\n\r\nx\r\n`), { from, automatic: false }, { ip: '127.0.0.1', helo: 'mx.test', envelopeSender }, resolver);

  it('judges an SPF pass aligned with From by organizational domain', async () => {
    const evidence = await evidenceFor('ann@shop.co.uk', 'bounce@mail.shop.co.uk');
    expect(evidence.spf).toEqual({ domain: 'mail.shop.co.uk', status: 'pass', aligned: true });
    expect(replyAddress(evidence)).toBe('ann@shop.co.uk');
  });

  it('does not take an SPF pass for evil.co.uk as proof of someone@co.uk', async () => {
    const evidence = await evidenceFor('someone@co.uk', 'x@evil.co.uk');
    expect(evidence.spf).toEqual({ domain: 'evil.co.uk', status: 'pass', aligned: false });
    expect(replyAddress(evidence)).toBeNull();
  });
});
