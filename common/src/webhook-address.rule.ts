/**
 * Where a webhook may be sent: the address classes of IPv4 and IPv6 that reach our own network
 * or the host's (loopback, private, link-local, the cloud metadata service …), which a webhook
 * must never reach unless the operator allows a network (WEBHOOK_ALLOWED_NETWORKS). Pure: the
 * api checks a URL's literal address at registration, infra every address a host name resolves
 * to, at registration and again before each delivery.
 */

/** An IP address as its bytes: 4 for IPv4, 16 for IPv6. */
export interface IpAddress {
  version: 4 | 6;
  bytes: readonly number[];
}

/** A network in CIDR notation: its first address and how many leading bits count. */
export interface IpNetwork {
  base: IpAddress;
  prefix: number;
}

const V4_PART = /^(0|[1-9]\d{0,2})$/;

function parseV4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => V4_PART.test(p))) return null;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

function parseV6(text: string): number[] | null {
  // A zone (fe80::1%eth0) names an interface, not an address.
  const address = text.replace(/%[\w.-]+$/, '');
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string): number[] | null => {
    if (half === '') return [];
    const out: number[] = [];
    const pieces = half.split(':');
    for (const [i, piece] of pieces.entries()) {
      // An IPv4 address may end it (::ffff:10.0.0.1).
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseV4(piece);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const words = [...head, ...Array<number>(missing).fill(0), ...tail];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/** An address as written (IPv6 with or without brackets); null when it is no IP address (a host name). */
export function parseIp(text: string): IpAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const v4 = parseV4(bare);
  if (v4) return { version: 4, bytes: v4 };
  if (!bare.includes(':')) return null;
  const v6 = parseV6(bare);
  return v6 ? { version: 6, bytes: v6 } : null;
}

/** `10.0.0.0/8`, `fd00::/8`; a bare address is a network of one. Null when malformed or the base has bits past the prefix. */
export function parseNetwork(text: string): IpNetwork | null {
  const [address, bits, ...rest] = text.trim().split('/');
  if (rest.length > 0 || address === undefined) return null;
  const base = parseIp(address);
  if (!base) return null;
  const width = base.bytes.length * 8;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return null;
  const prefix = bits === undefined ? width : Number(bits);
  if (prefix > width) return null;
  // 10.0.0.1/8 is a typo for one of two things: refused rather than guessed.
  return masked(base, prefix).every((b, i) => b === base.bytes[i]) ? { base, prefix } : null;
}

function masked(ip: IpAddress, prefix: number): number[] {
  return ip.bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
}

export function inNetwork(ip: IpAddress, network: IpNetwork): boolean {
  if (ip.version !== network.base.version) return false;
  const a = masked(ip, network.prefix);
  const b = masked(network.base, network.prefix);
  return a.every((byte, i) => byte === b[i]);
}

/** A comma- or space-separated list of networks (WEBHOOK_ALLOWED_NETWORKS): the networks, or the entries that are none. */
export function parseNetworkList(text: string): { networks: IpNetwork[]; invalid: string[] } {
  const entries = text.split(/[\s,]+/).filter(Boolean);
  const networks: IpNetwork[] = [];
  const invalid: string[] = [];
  for (const entry of entries) {
    const network = parseNetwork(entry);
    if (network) networks.push(network);
    else invalid.push(entry);
  }
  return { networks, invalid };
}

export const ADDRESS_KINDS = ['public', 'loopback', 'private', 'shared', 'link-local', 'unique-local', 'unspecified', 'multicast', 'metadata', 'reserved'] as const;
export type AddressKind = (typeof ADDRESS_KINDS)[number];

const net = (cidr: string): IpNetwork => parseNetwork(cidr)!;

/** Every network that is not the public internet, first match wins (the metadata addresses before the link-local and unique-local ranges they sit in). */
const SPECIAL_NETWORKS: ReadonlyArray<[IpNetwork, AddressKind]> = [
  [net('169.254.169.254/32'), 'metadata'],
  [net('fd00:ec2::254/128'), 'metadata'],
  [net('0.0.0.0/32'), 'unspecified'],
  [net('0.0.0.0/8'), 'reserved'],
  [net('10.0.0.0/8'), 'private'],
  [net('100.64.0.0/10'), 'shared'],
  [net('127.0.0.0/8'), 'loopback'],
  [net('169.254.0.0/16'), 'link-local'],
  [net('172.16.0.0/12'), 'private'],
  [net('192.0.0.0/24'), 'reserved'],
  [net('192.0.2.0/24'), 'reserved'],
  [net('192.168.0.0/16'), 'private'],
  [net('198.18.0.0/15'), 'reserved'],
  [net('198.51.100.0/24'), 'reserved'],
  [net('203.0.113.0/24'), 'reserved'],
  [net('224.0.0.0/4'), 'multicast'],
  [net('240.0.0.0/4'), 'reserved'],
  [net('::/128'), 'unspecified'],
  [net('::1/128'), 'loopback'],
  [net('100::/64'), 'reserved'],
  [net('2001:db8::/32'), 'reserved'],
  [net('fc00::/7'), 'unique-local'],
  [net('fe80::/10'), 'link-local'],
  [net('fec0::/10'), 'reserved'],
  [net('ff00::/8'), 'multicast'],
  // The rest of the IPv4-compatible range (::a.b.c.d, deprecated); mapped and NAT64 addresses are judged by their IPv4 part.
  [net('::/96'), 'reserved'],
];

/** IPv6 forms that carry an IPv4 address and reach it: IPv4-mapped (::ffff:0:0/96) and the NAT64 prefix (64:ff9b::/96). */
const EMBEDDING_V4 = [net('::ffff:0:0/96'), net('64:ff9b::/96')];

/** The IPv4 address an IPv6 one stands for, if it is one of those forms. */
export function embeddedV4(ip: IpAddress): IpAddress | null {
  if (ip.version !== 6 || !EMBEDDING_V4.some((n) => inNetwork(ip, n))) return null;
  return { version: 4, bytes: ip.bytes.slice(12) };
}

/** What kind of address this is; `public` is the only kind a webhook goes to unless its network is allowed. */
export function addressKind(ip: IpAddress): AddressKind {
  const v4 = embeddedV4(ip);
  if (v4) return addressKind(v4);
  return SPECIAL_NETWORKS.find(([network]) => inNetwork(ip, network))?.[1] ?? 'public';
}

/** Whether the operator allowed the address's network (an IPv4-mapped address counts as its IPv4 address too). */
export function isAllowedNetwork(ip: IpAddress, allowed: readonly IpNetwork[]): boolean {
  const v4 = embeddedV4(ip);
  return allowed.some((n) => inNetwork(ip, n) || (v4 !== null && inNetwork(v4, n)));
}

/** How an address is written back: dotted quad, or IPv6 in full groups without compression. */
export function formatIp(ip: IpAddress): string {
  if (ip.version === 4) return ip.bytes.join('.');
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push(((ip.bytes[i]! << 8) | ip.bytes[i + 1]!).toString(16));
  return words.join(':');
}

/** The words a refusal uses for each kind of address. */
const KIND_WORDS: Record<Exclude<AddressKind, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  shared: 'a carrier-grade NAT address',
  'link-local': 'a link-local address',
  'unique-local': 'a private (unique local) IPv6 address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  metadata: 'the cloud metadata service',
  reserved: 'a reserved address',
};

export type DestinationVerdict = { ok: true } | { ok: false; message: string };

/**
 * Whether a webhook may go to a host over `protocol` when it is (or resolves to) `addresses`:
 * every address public or in an allowed network, and in production (`requireHttps`) https
 * unless every address is in an allowed network. A host with no address is refused.
 */
export function destinationVerdict(input: {
  protocol: 'http:' | 'https:';
  host: string;
  addresses: readonly IpAddress[];
  allowed: readonly IpNetwork[];
  requireHttps: boolean;
}): DestinationVerdict {
  const { protocol, host, addresses, allowed, requireHttps } = input;
  if (addresses.length === 0) return { ok: false, message: `${host} does not resolve to an address.` };
  for (const ip of addresses) {
    if (isAllowedNetwork(ip, allowed)) continue;
    const kind = addressKind(ip);
    if (kind !== 'public') {
      const shown = formatIp(ip) === host || parseIp(host) ? host : `${host} (${formatIp(ip)})`;
      return { ok: false, message: `Webhooks cannot be sent to ${shown}: it is ${KIND_WORDS[kind]}.` };
    }
  }
  if (requireHttps && protocol === 'http:' && !addresses.every((ip) => isAllowedNetwork(ip, allowed))) {
    return { ok: false, message: 'Use an https:// address.' };
  }
  return { ok: true };
}

export interface WebhookTarget {
  protocol: 'http:' | 'https:';
  /** The host name, or the address without brackets. */
  host: string;
  /** The host's address when the URL names one instead of a host name. */
  literal: IpAddress | null;
}

/** A webhook URL's scheme and host: http or https, no credentials in it. */
export function webhookTarget(text: string): WebhookTarget | { message: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { message: 'Enter the full address, starting with https://.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { message: 'Use an http:// or https:// address.' };
  if (url.username || url.password) return { message: 'Leave the user name and password out of the address.' };
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { protocol: url.protocol, host, literal: parseIp(host) };
}
