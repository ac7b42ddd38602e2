import { describe, expect, it } from 'vitest';
import { addressKind, destinationVerdict, formatIp, parseIp, parseNetwork, parseNetworkList, webhookTarget, type AddressKind } from './webhook-address.rule.js';

const ip = (text: string) => {
  const parsed = parseIp(text);
  if (!parsed) throw new Error(`not an address: ${text}`);
  return parsed;
};

describe('parseIp', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::1', '0:0:0:0:0:0:0:1'],
    ['[::1]', '0:0:0:0:0:0:0:1'],
    ['::', '0:0:0:0:0:0:0:0'],
    ['2001:db8::8a2e:370:7334', '2001:db8:0:0:0:8a2e:370:7334'],
    ['::ffff:10.0.0.1', '0:0:0:0:0:ffff:a00:1'],
    ['fe80::1%eth0', 'fe80:0:0:0:0:0:0:1'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
  ])('reads %s', (text, formatted) => {
    expect(formatIp(ip(text))).toBe(formatted);
  });

  it.each(['example.com', '256.0.0.1', '1.2.3', '01.2.3.4', '1:2:3:4:5:6:7:8:9', '1::2::3', ':::', '1:2:3:4:5:6:7', 'g::1', '::1.2.3.256', ''])('takes %j for no address', (text) => {
    expect(parseIp(text)).toBeNull();
  });
});

describe('addressKind', () => {
  it.each<[string, AddressKind]>([
    ['93.184.216.34', 'public'],
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['100.128.0.1', 'public'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fdff::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['255.255.255.255', 'reserved'],
    ['0.1.2.3', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2001:db8::1', 'reserved'],
    // IPv4-mapped and NAT64 addresses are what they carry.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['::127.0.0.1', 'reserved'],
  ])('%s is %s', (text, kind) => {
    expect(addressKind(ip(text))).toBe(kind);
  });
});

describe('parseNetwork', () => {
  it.each([
    ['127.0.0.1/32', true],
    ['127.0.0.1', true],
    ['10.0.0.0/8', true],
    ['0.0.0.0/0', true],
    ['fd00::/8', true],
    ['::1/128', true],
    ['10.0.0.1/8', false],
    ['10.0.0.0/33', false],
    ['::/129', false],
    ['10.0.0.0/', false],
    ['10.0.0.0/8/8', false],
    ['localhost/32', false],
  ])('%s parses: %s', (text, parses) => {
    expect(parseNetwork(text) !== null).toBe(parses);
  });

  it('lists the entries that are no network', () => {
    const { networks, invalid } = parseNetworkList(' 127.0.0.1/32, 10.0.0.0/8  ::1 nonsense,10.0.0.1/8');
    expect(networks).toHaveLength(3);
    expect(invalid).toEqual(['nonsense', '10.0.0.1/8']);
    expect(parseNetworkList('')).toEqual({ networks: [], invalid: [] });
  });
});

describe('destinationVerdict', () => {
  const loopbackAllowed = parseNetworkList('127.0.0.1/32').networks;
  const verdict = (host: string, addresses: string[], options: { allowed?: typeof loopbackAllowed; protocol?: 'http:' | 'https:'; requireHttps?: boolean } = {}) =>
    destinationVerdict({ protocol: options.protocol ?? 'https:', host, addresses: addresses.map(ip), allowed: options.allowed ?? [], requireHttps: options.requireHttps ?? false });

  it.each<[string, string, string[], boolean]>([
    ['a public address', 'hooks.example.com', ['93.184.216.34'], true],
    ['a private literal', '10.0.0.1', ['10.0.0.1'], false],
    ['the metadata service', '169.254.169.254', ['169.254.169.254'], false],
    ['IPv6 loopback', '::1', ['::1'], false],
    ['a name resolving to loopback', 'localhost', ['127.0.0.1'], false],
    ['a name with one private address among public ones', 'mixed.example.com', ['93.184.216.34', '192.168.0.10'], false],
    ['a name resolving to nothing', 'nowhere.example.com', [], false],
  ])('%s', (_case, host, addresses, ok) => {
    expect(verdict(host, addresses).ok).toBe(ok);
  });

  it('names the host, its address and what kind of address refused it', () => {
    expect(verdict('localhost', ['127.0.0.1'])).toEqual({ ok: false, message: 'Webhooks cannot be sent to localhost (127.0.0.1): it is a loopback address.' });
    expect(verdict('169.254.169.254', ['169.254.169.254'])).toEqual({ ok: false, message: 'Webhooks cannot be sent to 169.254.169.254: it is the cloud metadata service.' });
  });

  it('lets an allowed network through, and only that one', () => {
    expect(verdict('localhost', ['127.0.0.1'], { allowed: loopbackAllowed }).ok).toBe(true);
    expect(verdict('::ffff:127.0.0.1', ['::ffff:127.0.0.1'], { allowed: loopbackAllowed }).ok).toBe(true);
    expect(verdict('127.0.0.2', ['127.0.0.2'], { allowed: loopbackAllowed }).ok).toBe(false);
    expect(verdict('::1', ['::1'], { allowed: loopbackAllowed }).ok).toBe(false);
  });

  it('asks for https in production, unless every address is in an allowed network', () => {
    expect(verdict('hooks.example.com', ['93.184.216.34'], { protocol: 'http:', requireHttps: true })).toEqual({ ok: false, message: 'Use an https:// address.' });
    expect(verdict('hooks.example.com', ['93.184.216.34'], { protocol: 'http:' }).ok).toBe(true);
    expect(verdict('127.0.0.1', ['127.0.0.1'], { protocol: 'http:', requireHttps: true, allowed: loopbackAllowed }).ok).toBe(true);
  });
});

describe('webhookTarget', () => {
  it.each([
    ['https://hooks.example.com/in', { protocol: 'https:', host: 'hooks.example.com', literal: null }],
    ['http://127.0.0.1:8080/x', { protocol: 'http:', host: '127.0.0.1', literal: ip('127.0.0.1') }],
    ['http://[::1]:9000/', { protocol: 'http:', host: '::1', literal: ip('::1') }],
    // The URL parser's own readings of odd IPv4 forms are what is checked.
    ['http://2130706433/', { protocol: 'http:', host: '127.0.0.1', literal: ip('127.0.0.1') }],
    ['http://0x7f.1/', { protocol: 'http:', host: '127.0.0.1', literal: ip('127.0.0.1') }],
    ['http://[::ffff:10.0.0.1]/', { protocol: 'http:', host: '::ffff:a00:1', literal: ip('::ffff:10.0.0.1') }],
  ])('reads %s', (text, target) => {
    expect(webhookTarget(text)).toEqual(target);
  });

  it.each([
    ['hooks.example.com/in', 'Enter the full address, starting with https://.'],
    ['ftp://hooks.example.com/', 'Use an http:// or https:// address.'],
    ['file:///etc/passwd', 'Use an http:// or https:// address.'],
    ['https://user:pass@hooks.example.com/', 'Leave the user name and password out of the address.'],
  ])('refuses %s', (text, message) => {
    expect(webhookTarget(text)).toEqual({ message });
  });
});
