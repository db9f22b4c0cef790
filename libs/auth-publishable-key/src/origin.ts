import { z } from 'zod';

/** Longer than any sane origin; keeps pathological headers away from the URL parser. */
const MAX_ORIGIN_LENGTH = 2048;

/**
 * The exact `scheme://host[:port]` form used both for stored allowed origins and for matching a request's Origin.
 * Lower-case, default ports dropped, IDN as punycode (what the WHATWG URL parser produces, i.e. what browsers send).
 * Only http/https. Anything with userinfo, a path, a query or a fragment is rejected rather than trimmed, so an
 * operator never believes a path-scoped entry restricts anything. A lone trailing `/` is tolerated because people
 * paste origins that way. The opaque origin `null` (sandboxed frames, file:) is never an origin we can allow.
 */
export function normalizeOrigin(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const raw = input.trim();
  if (raw === '' || raw.length > MAX_ORIGIN_LENGTH || raw.toLowerCase() === 'null') return null;
  // `*` would parse as a hostname character; no wildcard support, and no Origin a browser sends contains one.
  if (/[?#@*\\\s]/.test(raw)) return null;
  const url = parseUrl(raw);
  if (!url) return null;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return null;
  if (!url.hostname) return null;
  return `${url.protocol}//${url.host}`;
}

/** Normalizes a list, dropping invalid entries and duplicates. */
export function normalizeOrigins(inputs: readonly unknown[]): string[] {
  const out = new Set<string>();
  for (const input of inputs) {
    const origin = normalizeOrigin(input);
    if (origin) out.add(origin);
  }
  return [...out];
}

/**
 * A comma-separated list of origins, as an app's configuration reads one from the environment (embed-api's and the
 * widget server's EMBED_*_ORIGINS): each normalized to `scheme://host[:port]`; an invalid entry is a config error.
 */
export const OriginListSchema = z.string().transform((s, ctx) =>
  s
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      const origin = normalizeOrigin(item);
      if (!origin) ctx.addIssue({ code: 'custom', message: `not an http(s) origin: ${item}` });
      return origin ?? '';
    }),
);

/**
 * The origin of a configured service URL (`name`, e.g. WIDGET_URL) inside a config schema's transform; not an http(s)
 * origin: an issue on `name` and '' (which normalizeOrigins then drops).
 */
export function configOrigin(url: string, name: string, ctx: z.RefinementCtx): string {
  const origin = normalizeOrigin(new URL(url).origin);
  if (!origin) ctx.addIssue({ code: 'custom', path: [name], message: `${name} must be an http(s) URL` });
  return origin ?? '';
}

function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}
