import { promises as dns } from 'node:dns';
import type { AuthResult, AuthStatus, SenderEvidence } from '@receipts/common';
import { dkimVerify, spf, type DNSResolver } from 'mailauth';
import { getDomain } from 'tldts';

/** How the message reached us: the SMTP client's address and names, when it came over SMTP. */
export interface SmtpClient {
  ip: string;
  helo: string;
  /** MAIL FROM; empty for a bounce. */
  envelopeSender: string;
}

/**
 * DNS for the checks, each question bounded (3 s, 2 tries): DNS that does not answer makes the
 * checks end in temperror, which means no reply.
 */
export function boundedResolver(): DNSResolver {
  const resolver = new dns.Resolver({ timeout: 3000, tries: 2 });
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[][] | string[]>;
}

/**
 * A domain's organizational domain (DMARC, RFC 7489 section 3.2): its public suffix by the Public
 * Suffix List, private section included (two github.io sites have two owners), and one label more.
 * A public suffix itself, or a name the list cannot place (an IP address, one label), stands for itself.
 */
function organizationalDomain(domain: string): string {
  const name = domain.toLowerCase().replace(/\.$/, '');
  return getDomain(name, { allowPrivateDomains: true }) ?? name;
}

/**
 * Relaxed alignment (as DMARC): both domains have one organizational domain, so `mail.shop.com`
 * and `shop.com` align, while `evil.co.uk` and `co.uk`, or two sites of one hosting suffix, do not.
 */
export function alignedDomains(a: string, b: string): boolean {
  const org = organizationalDomain(a);
  return org !== '' && org === organizationalDomain(b);
}

/**
 * Checks who really sent a message: its DKIM signatures, and SPF for the SMTP client when the
 * message came over SMTP (a message read from a mailbox has no client we saw, so DKIM alone),
 * each judged aligned with the From domain or not. The verdict on replying is `replyAddress` in common.
 */
export async function senderEvidence(
  raw: Buffer,
  message: { from: string | null; automatic: boolean },
  client: SmtpClient | null,
  resolver: DNSResolver,
): Promise<SenderEvidence> {
  const dkim = await dkimVerify(raw, { resolver, sender: client?.envelopeSender || undefined });
  const spfResult = client?.envelopeSender
    ? await spf({ ip: client.ip, helo: client.helo, sender: client.envelopeSender, resolver, mta: 'receipts-intake' })
    : null;
  const fromDomain = message.from?.includes('@') ? message.from.slice(message.from.lastIndexOf('@') + 1) : '';
  const result = (domain: string, status: string): AuthResult => ({ domain, status: status as AuthStatus, aligned: alignedDomains(domain, fromDomain) });
  return {
    from: message.from,
    envelopeSender: client ? client.envelopeSender : null,
    dkim: (dkim.results ?? []).map((r) => result(r.signingDomain ?? '', r.status.result)),
    spf: spfResult ? result(spfResult.domain, spfResult.status.result) : null,
    automatic: message.automatic,
  };
}
