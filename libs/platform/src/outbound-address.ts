import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where an outbound request to an operator-controlled URL (a webhook) may go. `public` is the open internet; every
 * other class is a network the platform itself lives in (loopback, private ranges, the cloud metadata service on
 * link-local, unique-local IPv6 …) and is refused in production, so a webhook URL cannot reach our own services.
 */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'uniqueLocal'
  | 'carrierGradeNat'
  | 'linkLocal'
  | 'multicast'
  | 'unspecified'
  | 'reserved';

/** The classes a development machine may reach when `allowPrivateNetworks` is on (the demo receiver on localhost). */
const DEVELOPMENT_CLASSES: ReadonlySet<AddressClass> = new Set([
  'loopback',
  'private',
  'uniqueLocal',
  'carrierGradeNat',
]);

/** Host names that are the cloud metadata service whatever they resolve to (GCP's; AWS and Azure use 169.254.169.254). */
const METADATA_HOSTNAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

export interface OutboundPolicy {
  /** Development only: loopback and private networks are reachable (never link-local, hence never the metadata service). */
  allowPrivateNetworks: boolean;
}

/**
 * The class of an IP address, IPv4-mapped IPv6 (`::ffff:127.0.0.1`) judged as the IPv4 address it carries. Anything
 * ipaddr.js names outside plain unicast (NAT64, 6to4, Teredo, documentation, benchmarking, broadcast …) is
 * `reserved`: it either embeds another address or is not a real destination.
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) throw new TypeError(`not an IP address: ${address}`);
  const range = ipaddr.process(bare).range();
  switch (range) {
    case 'unicast':
      return 'public';
    case 'loopback':
    case 'private':
    case 'uniqueLocal':
    case 'carrierGradeNat':
    case 'linkLocal':
    case 'multicast':
    case 'unspecified':
      return range;
    default:
      return 'reserved';
  }
}

/** Why `address` may not be reached under `policy` (e.g. `loopback`), or null when it may. */
export function refusedAddressClass(address: string, policy: OutboundPolicy): AddressClass | null {
  const kind = classifyAddress(address);
  if (kind === 'public') return null;
  if (policy.allowPrivateNetworks && DEVELOPMENT_CLASSES.has(kind)) return null;
  return kind;
}

/**
 * What can be told from a URL's host name alone, before any DNS lookup: an IP literal's class (the WHATWG URL parser
 * has already turned `2130706433`, `0x7f000001` and `127.1` into `127.0.0.1`), `loopback` for `localhost` and
 * `*.localhost`, `metadata` for the cloud metadata names; null for any other name (decided when it is resolved).
 */
export function classifyHostname(hostname: string): AddressClass | 'metadata' | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare)) return classifyAddress(bare);
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (METADATA_HOSTNAMES.has(host)) return 'metadata';
  return null;
}

/** Why a URL's host name is refused under `policy` before any lookup, or null when nothing refuses it yet. */
export function refusedHostname(hostname: string, policy: OutboundPolicy): string | null {
  const kind = classifyHostname(hostname);
  if (kind === null || kind === 'public') return null;
  if (kind === 'metadata') return 'the cloud metadata service';
  if (policy.allowPrivateNetworks && DEVELOPMENT_CLASSES.has(kind)) return null;
  const words = describeClass(kind);
  // "a unique-local": the article follows the sound, and "uni…" starts with a consonant sound.
  return `${/^(?!uni)[aeiou]/.test(words) ? 'an' : 'a'} ${words} address`;
}

/** A connection refused because of where it would go: the code is not a socket errno, the message names the address. */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
  readonly code = 'ERR_BLOCKED_ADDRESS';

  constructor(
    readonly hostname: string,
    readonly address: string,
    readonly addressClass: AddressClass | 'metadata',
  ) {
    super(
      `${hostname === address ? address : `${hostname} resolves to ${address}`}: ${describeClass(addressClass)} address refused`,
    );
  }
}

export function isBlockedAddressError(err: unknown): err is BlockedAddressError {
  return err instanceof BlockedAddressError;
}

function describeClass(kind: AddressClass | 'metadata'): string {
  const words: Record<AddressClass | 'metadata', string> = {
    public: 'public',
    loopback: 'loopback',
    private: 'private',
    uniqueLocal: 'unique-local',
    carrierGradeNat: 'carrier-grade NAT',
    linkLocal: 'link-local',
    multicast: 'multicast',
    unspecified: 'unspecified',
    reserved: 'reserved',
    metadata: 'cloud metadata',
  };
  return words[kind];
}

type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for net/http(s) agents that resolves the name, then keeps only the addresses `policy` allows, so the
 * socket can only ever connect to one of those: the check is on the address actually dialled, after DNS, and a name
 * that resolves to a public address at one lookup and to 127.0.0.1 at the next (DNS rebinding) is refused the second
 * time. When every address is refused the connection fails with a BlockedAddressError before any packet is sent.
 * Node calls `lookup` for host names only: IP literals must be checked with refusedAddressClass before connecting.
 */
export function createGuardedLookup(
  policy: OutboundPolicy,
  resolve: ResolveAll = dnsLookup as ResolveAll,
): LookupFunction {
  return (hostname, options, callback) => {
    const metadata = classifyHostname(hostname) === 'metadata';
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return (callback as (e: NodeJS.ErrnoException) => void)(err);
      const allowed = metadata ? [] : addresses.filter((a) => refusedAddressClass(a.address, policy) === null);
      if (allowed.length === 0) {
        const first = addresses[0];
        const kind = metadata ? 'metadata' : first ? classifyAddress(first.address) : 'unspecified';
        return (callback as (e: Error) => void)(new BlockedAddressError(hostname, first?.address ?? hostname, kind));
      }
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, allowed);
      const [one] = allowed as [LookupAddress];
      (callback as (e: null, a: string, f: number) => void)(null, one.address, one.family);
    });
  };
}
