import fc from 'fast-check';
import { headerValue, oddParam } from './inputs';
import type { RequestInput, RouteSpec } from './route-spec';
import { encodeParam } from './transport';
import { wireBody, type WireBody } from './wire-bodies';

/** Requests of a route: valid path and query parameters, bodies and headers, mixed with odd ones. */

function queryString(query: Record<string, string | string[]>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) parts.push(`${encodeParam(key)}=${encodeParam(v)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

const RAW_QUERIES = [
  '?',
  '?&&',
  '?=',
  '?a',
  '?%',
  '?%ZZ=1',
  '?a[b]=1',
  '?__proto__[x]=1',
  '?constructor[prototype][x]=1',
  '?a=1&a=2&a=3',
  `?${'a=1&'.repeat(2000)}`,
  '?#frag',
];

const COMMON_ODD_HEADERS = [
  'origin',
  'idempotency-key',
  'authorization',
  'x-request-id',
  'accept',
  'cookie',
  'x-forwarded-for',
];

export function requestArb(spec: RouteSpec): fc.Arbitrary<RequestInput & { note: string }> {
  const paramNames = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const paramArb = fc.record(
    Object.fromEntries(
      paramNames.map((name) => [
        name,
        fc
          .oneof({ weight: 3, arbitrary: spec.params?.[name] ?? oddParam }, { weight: 2, arbitrary: oddParam })
          .map(encodeParam),
      ]),
    ) as Record<string, fc.Arbitrary<string>>,
  );
  const valid = spec.query ?? fc.constant({});
  const queryArb: fc.Arbitrary<string> = fc.oneof(
    { weight: 4, arbitrary: valid.map(queryString) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          valid,
          fc.oneof(fc.constantFrom('', '__proto__', 'constructor', 'pk', 'quoteId', 'destination'), oddParam),
          oddParam,
          fc.boolean(),
        )
        .map(([q, key, value, repeat]) => {
          const base = { ...q } as Record<string, string | string[]>;
          const target = key || Object.keys(base)[0] || 'q';
          base[target] = repeat ? [value, value] : value;
          return queryString(base);
        }),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES) },
  );
  const oddHeaderNames = [...COMMON_ODD_HEADERS, ...(spec.oddHeaders ?? [])];
  const headersArb = fc.oneof(
    { weight: 3, arbitrary: fc.constant<Record<string, string | null>>({}) },
    {
      weight: 2,
      arbitrary: fc.dictionary(fc.constantFrom(...oddHeaderNames), fc.option(headerValue, { nil: null }), {
        minKeys: 1,
        maxKeys: 3,
      }),
    },
  );
  const bodyArb: fc.Arbitrary<WireBody | undefined> = spec.body
    ? wireBody({ valid: spec.body, limitBytes: spec.bodyLimit ?? 64 * 1024 })
    : fc.oneof(
        { weight: 5, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.constant<WireBody>({ kind: 'odd-json', contentType: 'application/json', text: '{"a":' }),
        },
      );
  return fc.tuple(paramArb, queryArb, headersArb, bodyArb).map(([params, query, oddHeaders, body]) => {
    const path = spec.path.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? 'x') + query;
    const headers: Record<string, string> = {};
    const nulls: string[] = [];
    for (const [k, v] of Object.entries(oddHeaders)) {
      if (v === null) nulls.push(k);
      else headers[k] = v;
    }
    const note = [
      body?.kind ?? 'no-body',
      Object.keys(oddHeaders).length ? `odd headers: ${Object.keys(oddHeaders).join(',')}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    // `null` removes a header the client would normally send (no key, no Origin, no CSRF token).
    return { method: spec.method, path, headers: Object.assign(headers, { __remove: nulls.join(',') }), body, note };
  });
}

export async function buildInput(spec: RouteSpec, generated: RequestInput & { note: string }): Promise<RequestInput> {
  const { __remove, ...oddHeaders } = generated.headers;
  const base = (await spec.headers?.()) ?? {};
  const signed =
    spec.sign?.({ method: generated.method, path: generated.path, headers: base, body: generated.body }) ?? {};
  const headers: Record<string, string> = { ...base, ...signed, ...oddHeaders };
  for (const name of (__remove ?? '').split(',').filter(Boolean)) {
    for (const key of Object.keys(headers)) if (key.toLowerCase() === name) delete headers[key];
  }
  return { method: generated.method, path: generated.path, headers, body: generated.body };
}
