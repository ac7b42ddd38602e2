import { describe, expect, it } from 'vitest';
import { clientNetwork } from './client-network.js';

describe('clientNetwork', () => {
  it.each([
    ['an IPv4 address is its own', '192.0.2.7', '192.0.2.7'],
    ['an IPv4 client of a dual-stack socket is its IPv4 address, not a /64 of every IPv4 client', '::ffff:192.0.2.7', '192.0.2.7'],
    ['so is one written in capitals', '::FFFF:198.51.100.1', '198.51.100.1'],
    ['an IPv6 address counts by its /64', '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['another address of that /64 is the same network', '2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['the next /64 is another', '2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['zeros compressed inside the prefix are filled in', '2001:db8::2:0:0:1', '2001:db8:0:0::/64'],
    ['leading zeros and case do not matter', '2001:0DB8:0001:0002::1', '2001:db8:1:2::/64'],
    ['an address that is all zeros before its tail', '::1', '0:0:0:0::/64'],
    ['an IPv4 tail counts as two groups', 'a::b:c:d:192.0.2.1', 'a:0:0:b::/64'],
    ['a zone index is left out', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('%s', (_, address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });
});
