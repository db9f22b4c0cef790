import ipaddr from 'ipaddr.js';

/** How many leading bits of an IPv6 address name one client: a /64 is what one subscriber or host usually gets. */
export const IPV6_CLIENT_PREFIX = 64;

/**
 * The id a per-client budget counts under. IPv4 is the address itself (an IPv4-mapped IPv6 address is its IPv4);
 * IPv6 is its /64 (`2001:db8:1:2::/64`), because a single host can pick any of 2^64 addresses of its prefix and would
 * otherwise get a fresh budget with each. Anything unparseable is returned as given (lower case), never thrown.
 */
export function clientBucket(ip: string | undefined | null): string {
  if (!ip) return 'unknown';
  const bare = ip
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return bare || 'unknown';
  const address = ipaddr.process(bare);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, IPV6_CLIENT_PREFIX / 16);
  const prefix = ipaddr.IPv6.parse(`${parts.map((p) => p.toString(16)).join(':')}::`);
  return `${prefix.toString()}/${IPV6_CLIENT_PREFIX}`;
}
