import { addDays, isoDay } from '@expedition/contracts/rules';
import fc from 'fast-check';
import { z } from 'zod';

/**
 * Input generators: valid values from our zod contracts (through their JSON Schema), and the mutations of them that
 * clients get wrong or attackers try. Everything is a fast-check arbitrary, so one seed replays a whole run.
 */

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: boolean | JsonSchema;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  default?: unknown;
};

/** The UTC calendar day `offsetDays` from today (generated trip dates stay inside the accepted window). */
export const dayFromToday = (offsetDays: number) => addDays(isoDay(Date.now()), offsetDays);

/** Strings that have broken parsers, validators, databases and log lines before. */
export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\u202Eevil\u202C',
  'שלום עולם',
  '🧊🐧🏔️👨‍👩‍👧‍👦',
  'Z̴̡̛̖͓a̷̟͆l̸̰̓g̵̱̈́o̶͉͝',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e309',
  'null',
  'undefined',
  'true',
  '0x1F',
  '__proto__',
  'constructor',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${7*7}{{7*7}}',
  '\r\nSet-Cookie: x=1',
  '\t\v\f',
  'Ａｎｔａｒｃｔｉｃａ',
  'antarctica',
  'ANTARCTICA',
  '2027-02-30',
  '9999-12-31',
  '0000-00-00',
  '2027-01-10T00:00:00Z',
  'x'.repeat(300),
  'é'.repeat(5000),
];

/** Numbers at the edges of every numeric check. */
export const ODD_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  1e-9,
  2 ** 31,
  -(2 ** 31),
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  1e21,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  Number.EPSILON,
  99999999999,
  12.345,
];

export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

export const oddNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...ODD_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, odd ones often: the "wrong type" for a field. */
export const oddJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, {}, [], [null], { '': '' }),
  oddString,
  oddNumber,
  fc.array(fc.oneof(oddString, oddNumber), { maxLength: 4 }),
  fc.dictionary(oddString, fc.oneof(oddString, oddNumber), { maxKeys: 3 }),
);

function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.split('/').pop() ?? '';
  return root.$defs?.[name] ?? {};
}

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  if (s.format === 'date') return fc.integer({ min: 1, max: 300 }).map(dayFromToday);
  if (s.format === 'email') return fc.constantFrom('traveler@example.com', 'a.b+c@tours.example', 'x@y.io');
  if (s.format === 'uri' || s.format === 'url')
    return fc.constantFrom('https://tours.example', 'https://hooks.example/x');
  if (s.format === 'uuid') return fc.uuid();
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? Math.max(min, 24), Math.max(min, 64));
  if (s.pattern) {
    try {
      const re = new RegExp(s.pattern);
      return fc.stringMatching(re).filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity));
    } catch {
      // fall through: an unsupported pattern is generated as a plain string
    }
  }
  return fc.string({ minLength: min, maxLength: max });
}

function numberArb(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-6) : -1_000);
  const max =
    s.maximum ??
    (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-6) : Math.max(min, 0) + 100_000);
  if (integer)
    return fc.integer({ min: Math.ceil(Math.max(min, -(2 ** 31))), max: Math.floor(Math.min(max, 2 ** 31)) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** A value the JSON Schema accepts (best effort: formats and patterns we know, bounds respected). */
export function fromJsonSchema(schema: JsonSchema, root: JsonSchema = schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolveRef(schema, root);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const union = s.anyOf ?? s.oneOf;
  if (union?.length) return fc.oneof(...union.map((u) => fromJsonSchema(u, root, depth + 1)));
  if (s.allOf?.length) return fromJsonSchema(s.allOf[0]!, root, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth > 6) return fc.constant([]);
      if (s.prefixItems) return fc.tuple(...s.prefixItems.map((p) => fromJsonSchema(p, root, depth + 1)));
      const minLength = s.minItems ?? 0;
      const maxLength = Math.min(s.maxItems ?? Math.max(minLength, 4), Math.max(minLength, 8));
      return fc.array(fromJsonSchema(s.items ?? {}, root, depth + 1), { minLength, maxLength });
    }
    case 'object': {
      if (depth > 6) return fc.constant({});
      const props = s.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, value] of Object.entries(props)) record[key] = fromJsonSchema(value, root, depth + 1);
      return fc.record(record, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return oddJson;
  }
}

/** Valid request bodies of a zod contract (its input side: before transforms and defaults). */
export function fromZod(schema: z.ZodType): fc.Arbitrary<unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return fromJsonSchema(json);
}

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

/** Header values an HTTP client can send (visible ASCII and Latin-1, no CR/LF). */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    'undefined',
    'x'.repeat(300),
    'x'.repeat(8_000),
    '\u00e9\u00ff',
    '../..',
    '*',
    'a,b',
    '"quoted"',
  ),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 64 }),
  fc.string({ unit: fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 16 }),
);

/** Odd values for a path segment or query value (sent percent-encoded). */
export const oddParam: fc.Arbitrary<string> = fc.oneof(
  oddString,
  fc.constantFrom('1', '0', '-1', '%', '%ZZ', '..', '.', '~', 'a/b', 'a%2Fb', '%00', '%C0%AE', '%FF'),
);
