import { addDays, isoDay } from '@expedition/contracts/rules';
import fc from 'fast-check';
import { z } from 'zod';

/**
 * Input generators: valid values from our zod contracts (through their JSON Schema), and the odd values that
 * clients get wrong or attackers try (whole bodies and their mutations: wire-bodies.ts). Everything is a fast-check arbitrary, so one seed replays a whole run.
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
