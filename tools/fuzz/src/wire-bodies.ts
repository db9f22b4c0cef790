import fc from 'fast-check';
import { oddJson, oddString } from './inputs';

/**
 * Request bodies: mutations of a valid body (fields deleted, replaced by the wrong type, extra and polluting keys,
 * deep nesting) and the bytes a client puts on the wire (broken JSON, wrong content types, oversized bodies).
 */

/** Sets an own enumerable property, also for `__proto__` (so it reaches the JSON text, as an attacker sends it). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const clone = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

function pathsOf(
  value: unknown,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const path = [...prefix, Array.isArray(value) ? Number(key) : key];
      out.push(path);
      if (path.length < 6) pathsOf(child, path, out);
    }
  }
  return out;
}

function parentOf(root: unknown, path: (string | number)[]): Record<string, unknown> | undefined {
  let node = root as Record<string, unknown> | undefined;
  for (const step of path.slice(0, -1)) node = node?.[step] as Record<string, unknown> | undefined;
  return node && typeof node === 'object' ? node : undefined;
}

const EXTRA_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'isAdmin', '$where', ''];

function deepValue(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

type Mutation =
  | { kind: 'delete'; at: number }
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'extra'; at: number; key: string; value: unknown }
  | { kind: 'pollute'; key: string; value: unknown }
  | { kind: 'deep'; at: number; depth: number };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: oddJson }) },
  fc.record({
    kind: fc.constant('extra' as const),
    at: fc.nat(),
    key: fc.oneof(fc.constantFrom(...EXTRA_KEYS), oddString),
    value: oddJson,
  }),
  fc.record({
    kind: fc.constant('pollute' as const),
    key: fc.constantFrom('__proto__', 'constructor'),
    value: fc.constantFrom<unknown>({ polluted: true }, { prototype: { polluted: true } }, 'x', null),
  }),
  fc.record({ kind: fc.constant('deep' as const), at: fc.nat(), depth: fc.constantFrom(20, 64, 200, 2_000) }),
);

function applyMutation(body: unknown, m: Mutation): unknown {
  const root = clone(body);
  if (!root || typeof root !== 'object') return m.kind === 'replace' ? m.value : root;
  const paths = pathsOf(root);
  const path = paths.length ? paths[('at' in m ? m.at : 0) % paths.length]! : undefined;
  switch (m.kind) {
    case 'delete': {
      const parent = path && parentOf(root, path);
      if (parent && path) {
        if (Array.isArray(parent)) parent.splice(Number(path[path.length - 1]), 1);
        else delete parent[path[path.length - 1]!];
      }
      return root;
    }
    case 'replace': {
      const parent = path && parentOf(root, path);
      if (parent && path) parent[path[path.length - 1]!] = m.value;
      return root;
    }
    case 'extra': {
      const parent = (path && parentOf(root, path)) || (root as Record<string, unknown>);
      if (!Array.isArray(parent)) setOwn(parent, m.key, m.value);
      return root;
    }
    case 'pollute': {
      if (!Array.isArray(root)) setOwn(root as Record<string, unknown>, m.key, m.value);
      return root;
    }
    case 'deep': {
      const parent = (path && parentOf(root, path)) || (root as Record<string, unknown>);
      if (path && !Array.isArray(parent)) parent[path[path.length - 1]!] = deepValue(m.depth);
      return root;
    }
  }
}

/** 1 to 3 mutations of a valid body. */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, fc.array(mutationArb, { minLength: 1, maxLength: 3 }))
    .map(([body, mutations]) => mutations.reduce<unknown>((acc, m) => applyMutation(acc, m), body));
}

/** Request bodies as bytes on the wire, with a content type. */
export interface WireBody {
  kind: 'valid' | 'mutated' | 'broken-json' | 'wrong-content-type' | 'oversized' | 'deep-json' | 'none' | 'odd-json';
  contentType?: string;
  text?: string;
}

const BROKEN_JSON = [
  '{',
  '{"a":',
  "{'destination':'Antarctica'}",
  '{"a":1,}',
  '[1,2',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":undefined}',
  '\uFEFF{}',
  '{"a":"\\u00"}',
  '{"a":"\\x41"}',
  'null',
  '"a string"',
  '12',
  'true',
  '',
  '   ',
  '{"a":1}{"b":2}',
  '{"a" 1}',
  '\u0000',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
];

export const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=nonsense',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'application/octet-stream',
  '*/*',
  'json',
  ';;;',
];

export interface BodyOptions {
  /** Valid bodies (from the contract, or seeds that reach deep into the route). */
  valid: fc.Arbitrary<unknown>;
  /** The app's JSON body limit in bytes: oversized bodies are built just over it. */
  limitBytes: number;
}

export function wireBody(options: BodyOptions): fc.Arbitrary<WireBody> {
  const json = 'application/json';
  const stringify = (value: unknown) => JSON.stringify(value) ?? 'null';
  return fc.oneof(
    {
      weight: 3,
      arbitrary: options.valid.map((v): WireBody => ({ kind: 'valid', contentType: json, text: stringify(v) })),
    },
    {
      weight: 8,
      arbitrary: mutated(options.valid).map((v): WireBody => ({
        kind: 'mutated',
        contentType: json,
        text: stringify(v),
      })),
    },
    {
      weight: 2,
      arbitrary: oddJson.map((v): WireBody => ({ kind: 'odd-json', contentType: json, text: stringify(v) })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...BROKEN_JSON), options.valid, fc.nat())
        .map(([broken, v, cut]): WireBody => {
          const full = stringify(v);
          // Half the time a valid body cut short: truncated uploads are the commonest broken JSON.
          return {
            kind: 'broken-json',
            contentType: json,
            text: cut % 2 ? full.slice(0, cut % Math.max(full.length, 1)) : broken,
          };
        }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...CONTENT_TYPES, undefined), options.valid)
        .map(([contentType, v]): WireBody => ({ kind: 'wrong-content-type', contentType, text: stringify(v) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(options.valid, fc.integer({ min: 1, max: 3 * options.limitBytes }))
        .map(([v, extra]): WireBody => {
          const base = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
          return {
            kind: 'oversized',
            contentType: json,
            text: stringify({ ...base, padding: 'p'.repeat(options.limitBytes + extra) }),
          };
        }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(50, 500, 5_000, 50_000).map((depth): WireBody => ({
        kind: 'deep-json',
        contentType: json,
        text: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
      })),
    },
    { weight: 1, arbitrary: fc.constantFrom<WireBody>({ kind: 'none' }, { kind: 'none', contentType: json }) },
  );
}
