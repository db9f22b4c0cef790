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
 * The class of an IP address. An IPv6 address that carries an IPv4 address (the forms of `embeddedIPv4`) is judged by
 * the IPv4 address it carries when that one is not public: `::7f00:1`, `::ffff:127.0.0.1`, `64:ff9b::7f00:1`,
 * `2002:7f00:1::` and a Teredo address whose client is 127.0.0.1 are all `loopback`. With a public IPv4 inside, an
 * IPv4-mapped address is that public address (a dual-stack socket dials it as IPv4); the other forms are `reserved`,
 * as is anything else ipaddr.js names outside plain unicast (documentation, benchmarking, broadcast …): they are
 * relays, translators or not real destinations.
 */
export function classifyAddress(address: string): AddressClass {
  return judgeAddress(address).kind;
}

/** `classifyAddress`, and whether the address reaches its IPv4 through a translator or tunnel (not IPv4-mapped). */
function judgeAddress(address: string): { kind: AddressClass; tunnelled: boolean } {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) throw new TypeError(`not an IP address: ${address}`);
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return { kind: rangeClass(parsed.range()), tunnelled: false };
  const bytes = parsed.toByteArray();
  if (isLocalUseNat64(bytes)) return { kind: 'reserved', tunnelled: true };
  const embedded = embeddedIPv4(bytes);
  if (!embedded) return { kind: rangeClass(parsed.range()), tunnelled: false };
  const refused = embedded.ipv4s
    .map((ipv4) => rangeClass(ipaddr.fromByteArray(ipv4).range()))
    .find((k) => k !== 'public');
  const tunnelled = embedded.form !== 'mapped';
  if (refused) return { kind: refused, tunnelled };
  return { kind: tunnelled ? 'reserved' : 'public', tunnelled };
}

type EmbeddingForm = 'mapped' | 'translated' | 'compatible' | 'nat64' | '6to4' | 'teredo';

/**
 * The IPv4 addresses an IPv6 address carries, by form: IPv4-mapped `::ffff:a.b.c.d` and IPv4-translated
 * `::ffff:0:a.b.c.d` (RFC 4291, 2765), IPv4-compatible `::a.b.c.d` (deprecated, RFC 4291; `::` and `::1` are not),
 * NAT64's well-known prefix `64:ff9b::/96` (RFC 6052), 6to4 `2002:AABB:CCDD::/48` (RFC 3056), Teredo `2001::/32`
 * (RFC 4380: the server's IPv4 in bits 32–63, the client's in the last 32 bits, each bit inverted). Null otherwise.
 */
function embeddedIPv4(bytes: readonly number[]): { form: EmbeddingForm; ipv4s: number[][] } | null {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const last32 = bytes.slice(12, 16);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return { form: 'mapped', ipv4s: [last32] };
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12))
    return { form: 'translated', ipv4s: [last32] };
  const unspecifiedOrLoopback = zeros(12, 15) && (bytes[15] ?? 0) <= 1;
  if (zeros(0, 12) && !unspecifiedOrLoopback) return { form: 'compatible', ipv4s: [last32] };
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b]) && zeros(4, 12)) return { form: 'nat64', ipv4s: [last32] };
  if (startsWith(bytes, [0x20, 0x02])) return { form: '6to4', ipv4s: [bytes.slice(2, 6)] };
  if (startsWith(bytes, [0x20, 0x01, 0x00, 0x00]))
    return { form: 'teredo', ipv4s: [last32.map((b) => b ^ 0xff), bytes.slice(4, 8)] };
  return null;
}

/**
 * NAT64's local-use prefix `64:ff9b:1::/48` (RFC 8215): where the IPv4 address sits depends on the prefix length the
 * network chose, so it cannot be read off the address; such an address is never a public destination anyway.
 */
function isLocalUseNat64(bytes: readonly number[]): boolean {
  return startsWith(bytes, [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01]);
}

function startsWith(bytes: readonly number[], prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/** ipaddr.js's range name → our class. */
function rangeClass(range: string): AddressClass {
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

/**
 * Why `address` may not be reached under `policy` (e.g. `loopback`), or null when it may. Development's private
 * networks are reached directly, never through a translator or tunnel (`::7f00:1`, `2002:7f00:1::` stay refused).
 */
export function refusedAddressClass(address: string, policy: OutboundPolicy): AddressClass | null {
  const { kind, tunnelled } = judgeAddress(address);
  if (kind === 'public') return null;
  if (policy.allowPrivateNetworks && !tunnelled && DEVELOPMENT_CLASSES.has(kind)) return null;
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
  const literal = hostname.replace(/^\[(.*)\]$/, '$1');
  // An IP literal is judged as the address it is (a tunnelled one is refused even in development); a name is loopback.
  const refused = isIP(literal) ? refusedAddressClass(literal, policy) : policy.allowPrivateNetworks ? null : kind;
  if (refused === null) return null;
  const words = describeClass(refused);
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
