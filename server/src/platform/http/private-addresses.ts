import net from 'node:net';

/**
 * Addresses that are not the public internet: this host (loopback, "this network"), private
 * networks (RFC 1918, carrier-grade NAT, unique local IPv6), link-local ones (cloud metadata
 * services live at 169.254.169.254), multicast, and the reserved and documentation ranges.
 */
const NOT_PUBLIC = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  // The unspecified address, loopback (::1) and the deprecated IPv4-compatible ones (::a.b.c.d).
  ['::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv6');
}

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;
const MAPPED_IPV4_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/** True for an address that is not on the public internet (see NOT_PUBLIC); anything unreadable counts as not public. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return NOT_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is that IPv4 address.
  const dotted = MAPPED_IPV4.exec(address)?.[1];
  if (dotted) return NOT_PUBLIC.check(dotted, 'ipv4');
  const hex = MAPPED_IPV4_HEX.exec(address);
  if (hex) {
    const value = (parseInt(hex[1]!, 16) << 16) | parseInt(hex[2]!, 16);
    return NOT_PUBLIC.check([24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join('.'), 'ipv4');
  }
  return NOT_PUBLIC.check(address, 'ipv6');
}
