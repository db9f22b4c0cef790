import { normalizeOrigin } from '@expedition/auth-publishable-key';
import { MODES, type Mode } from '@expedition/contracts';

/**
 * Allowed origins belong to the operator, not to a key. "localhost only for test keys" is therefore a rule of the
 * match, not of the list: a loopback origin (localhost, *.localhost, 127.0.0.0/8, [::1]) may be listed, and it is
 * accepted for TEST keys only; for a live key the embed gate, the widget's frame-ancestors and the origin tester
 * ignore it (`originsForMode`). The portal says so next to every loopback entry.
 */
export function isLoopbackOrigin(origin: string): boolean {
  let host: string;
  try {
    host = new URL(origin).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The key modes an allowed origin is accepted for. */
export function originModes(origin: string): Mode[] {
  return isLoopbackOrigin(origin) ? ['test'] : [...MODES];
}

/** The operator's origins as the gate must apply them to a key of `mode` (loopback dropped for live keys). */
export function originsForMode(origins: readonly string[], mode: Mode): string[] {
  return mode === 'live' ? origins.filter((o) => !isLoopbackOrigin(o)) : [...origins];
}

/** Why an input is not an origin we can allow, in words a person can act on; null when it is one. */
export function describeOriginProblem(input: unknown): string | null {
  if (normalizeOrigin(input) !== null) return null;
  const raw = typeof input === 'string' ? input.trim() : '';
  if (raw === '') return 'Enter an origin such as https://www.example.com';
  if (raw.toLowerCase() === 'null') return 'The opaque origin "null" (sandboxed frames, file: pages) cannot be allowed';
  if (raw.includes('*'))
    return 'Wildcards are not supported: add each origin (www. and the bare domain are separate entries)';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `"${raw.slice(0, 100)}" is not a URL: write scheme://host[:port], e.g. https://www.example.com`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Only http and https origins can be allowed';
  if (url.username || url.password) return 'An origin cannot contain a user name or password';
  if (url.pathname !== '/' || url.search || url.hash) {
    return `An origin has no path, query or fragment: use ${url.protocol}//${url.host}`;
  }
  return 'Not a valid origin: write scheme://host[:port], e.g. https://www.example.com';
}
