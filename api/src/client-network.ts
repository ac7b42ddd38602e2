import { isIPv6 } from 'node:net';

/**
 * What connections from one client are counted by: its IPv4 address, or the /64 of an IPv6
 * address, since one host or subscriber is handed a whole /64 and can connect from any address in it.
 */
export function clientNetwork(address: string): string {
  const plain = address.replace(/%.*$/, '');
  // An IPv4 client of a dual-stack socket (::ffff:192.0.2.7) is that IPv4 address: its /64 would be every IPv4 client at once.
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(plain)?.[1];
  if (mapped) return mapped;
  if (!isIPv6(plain)) return address;
  const [head = '', tail] = plain.split('::');
  const hextets = (part: string) =>
    part
      .split(':')
      .filter(Boolean)
      // An IPv4 tail (64:ff9b::192.0.2.1) stands for two groups; only their count matters, past the /64.
      .flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const first = hextets(head);
  const last = tail === undefined ? [] : hextets(tail);
  const groups = [...first, ...Array<string>(8 - first.length - last.length).fill('0'), ...last];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
