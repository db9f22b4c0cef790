/**
 * Compiles the ICU MessageFormat catalogs (libs/i18n/messages/<namespace>/<locale>.json) into plain TypeScript
 * functions (libs/i18n/src/generated/<namespace>.<locale>.ts), so no code that shows a text ships a parser.
 *
 *   npm run i18n:compile           writes the generated files
 *   npm run i18n:compile -- --check   fails when they are not what the catalogs give (messages.spec.ts runs it too)
 *
 * It also writes the pseudo-locale (en-XA: accented, ~40 % longer, in brackets) from the English catalog, and the
 * messages' TypeScript shape from the English catalog (each placeholder typed), so a call with a missing or misspelt
 * placeholder does not type-check.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import MessageFormat from '@messageformat/core';
import compileModule from '@messageformat/core/lib/compile-module';
import { parse, type Token } from '@messageformat/parser';

export const ROOT = join(__dirname, '..');
export const MESSAGES_DIR = join(ROOT, 'messages');
export const GENERATED_DIR = join(ROOT, 'src', 'generated');
export const LOCALES = ['en', 'de', 'fr', 'es'] as const;
export const PSEUDO_LOCALE = 'en-XA';

/** A namespace's catalog: nested objects whose leaves are ICU MessageFormat strings. */
export interface Catalog {
  [key: string]: string | Catalog;
}

export function namespaces(): string[] {
  return readdirSync(MESSAGES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

export function readCatalog(namespace: string, locale: string): Catalog {
  const file = join(MESSAGES_DIR, namespace, `${locale}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Catalog) : {};
}

/** Every leaf of a catalog as [dotted key, message]. */
export function leaves(catalog: Catalog, prefix = ''): [string, string][] {
  return Object.entries(catalog).flatMap(([k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return typeof v === 'string' ? [[key, v] as [string, string]] : leaves(v, key);
  });
}

export type ArgKind = 'text' | 'number' | 'select';

/** The placeholders of one message and how each is used: `{x}` text, plural/number number, select select. */
export function placeholders(message: string): Map<string, ArgKind> {
  const found = new Map<string, ArgKind>();
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'argument') found.set(t.arg, found.get(t.arg) ?? 'text');
      else if (t.type === 'function') found.set(t.arg, t.key === 'number' ? 'number' : 'text');
      else if (t.type === 'plural' || t.type === 'selectordinal') {
        found.set(t.arg, 'number');
        t.cases.forEach((c) => walk(c.tokens));
      } else if (t.type === 'select') {
        found.set(t.arg, 'select');
        t.cases.forEach((c) => walk(c.tokens));
      }
    }
  };
  walk(parse(message, { strict: true }));
  return found;
}

// ---------------------------------------------------------------------------------------------------------------
// Pseudo-locale: the English text accented and made ~40 % longer, in brackets, placeholders untouched; a text that
// shows unaccented in the pseudo-locale was not translated, and one whose closing bracket is cut off was clipped.

const ACCENTS: Record<string, string> = {
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'ð',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'í',
  j: 'ĵ',
  k: 'ķ',
  l: 'ļ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ö',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'ü',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Á',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ð',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Í',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ö',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Ü',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};
const VOWELS = /[aeiouAEIOU]/;

/** Accents letters and doubles every third vowel (about +40 % with the brackets on short texts). */
export function pseudoText(text: string): string {
  let vowels = 0;
  let out = '';
  for (const ch of text.replace(/'/g, '’')) {
    out += ACCENTS[ch] ?? ch;
    if (VOWELS.test(ch) && ++vowels % 2 === 0) out += ACCENTS[ch] ?? ch;
  }
  return out;
}

const escapeContent = (s: string) => s.replace(/[{}]/g, (c) => `'${c}'`);

function serialize(tokens: Token[], inPlural: boolean): string {
  return tokens
    .map((t) => {
      switch (t.type) {
        case 'content':
          return escapeContent(pseudoText(t.value)).replace(/#/g, inPlural ? "'#'" : '#');
        case 'argument':
          return `{${t.arg}}`;
        case 'octothorpe':
          return '#';
        case 'function':
          return `{${t.arg}, ${t.key}${t.param ? `, ${serialize(t.param, false)}` : ''}}`;
        default: {
          const plural = t.type !== 'select';
          const offset = t.pluralOffset ? `offset:${t.pluralOffset} ` : '';
          const cases = t.cases.map((c) => `${c.key} {${serialize(c.tokens, plural)}}`).join(' ');
          return `{${t.arg}, ${t.type}, ${offset}${cases}}`;
        }
      }
    })
    .join('');
}

export function pseudoMessage(message: string): string {
  const body = serialize(parse(message, { strict: true }), false);
  // Padding so that a short label grows like a German or French one would (~40 %), in words a line can break between.
  const pad = (
    '···· '.repeat(Math.ceil(message.length / 20)).slice(0, Math.max(1, Math.round(message.length * 0.25))) || '·'
  ).trim();
  return `[${body} ${pad}]`;
}

export function pseudoCatalog(catalog: Catalog): Catalog {
  return Object.fromEntries(
    Object.entries(catalog).map(([k, v]) => [k, typeof v === 'string' ? pseudoMessage(v) : pseudoCatalog(v)]),
  );
}

// ---------------------------------------------------------------------------------------------------------------

const pascal = (s: string) => s.replace(/(^|[-_])(\w)/g, (_, __, c: string) => c.toUpperCase());
export const typeName = (namespace: string) => `${pascal(namespace)}Messages`;

const TS_TYPE: Record<ArgKind, string> = { text: 'string | number', number: 'number', select: 'string' };

function shape(catalog: Catalog, indent: string): string {
  return Object.entries(catalog)
    .map(([k, v]) => {
      const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
      if (typeof v !== 'string') return `${indent}readonly ${key}: {\n${shape(v, `${indent}  `)}\n${indent}};`;
      const args = [...placeholders(v)].map(([name, kind]) => `${name}: ${TS_TYPE[kind]}`);
      return `${indent}${key}(${args.length ? `d: { ${args.join('; ')} }` : ''}): string;`;
    })
    .join('\n');
}

/** The runtime's selectors return `unknown` in its types; they return the string of the chosen case. */
function typedRuntime(names: string): string {
  const list = names.split(',').map((n) => n.trim());
  return (
    `import { ${list.map((n) => `${n} as ${n}_`).join(', ')} } from "@messageformat/runtime";\n` +
    list.map((n) => `const ${n} = ${n}_ as (...args: any[]) => string;`).join('\n')
  );
}

const HEADER =
  '// Generated by libs/i18n/scripts/compile-messages.ts from libs/i18n/messages: do not edit (npm run i18n:compile).\n';

/** The generated files as { file name: contents }. */
export function compileAll(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const ns of namespaces()) {
    const english = readCatalog(ns, 'en');
    const type = typeName(ns);
    out[`${ns}.types.ts`] = `${HEADER}\nexport interface ${type} {\n${shape(english, '  ')}\n}\n`;
    const catalogs: [string, Catalog][] = [
      ...LOCALES.map((l) => [l, readCatalog(ns, l)] as [string, Catalog]),
      [PSEUDO_LOCALE, pseudoCatalog(english)],
    ];
    for (const [locale, catalog] of catalogs) {
      const intlLocale = locale === PSEUDO_LOCALE ? 'en' : locale;
      const code = compileModule(new MessageFormat(intlLocale, { strict: true }), catalog)
        .replace(/^export default \{/m, `const messages: ${type} = {`)
        .replace(/\(d\) =>/g, '(d: any) =>')
        .replace(/^import \{ ([^}]+) \} from "@messageformat\/runtime";$/m, (_: string, names: string) =>
          typedRuntime(names),
        );
      out[`${ns}.${locale}.ts`] =
        `${HEADER}/* eslint-disable */\nimport type { ${type} } from './${ns}.types';\n${code}\n\nexport default messages;\n`;
    }
  }
  return out;
}

/** The generated files that differ from what is on disk (or are missing or extra). */
export function staleFiles(): string[] {
  const expected = compileAll();
  const stale = Object.entries(expected)
    .filter(
      ([name, text]) =>
        !existsSync(join(GENERATED_DIR, name)) || readFileSync(join(GENERATED_DIR, name), 'utf8') !== text,
    )
    .map(([name]) => name);
  const extra = readdirSync(GENERATED_DIR).filter((name) => !(name in expected));
  return [...stale, ...extra];
}

if (require.main === module) {
  if (process.argv.includes('--check')) {
    const stale = staleFiles();
    if (stale.length) {
      console.error(`libs/i18n/src/generated is not current (${stale.join(', ')}): run npm run i18n:compile`);
      process.exit(1);
    }
    console.log('libs/i18n/src/generated is current');
  } else {
    for (const [name, text] of Object.entries(compileAll())) writeFileSync(join(GENERATED_DIR, name), text);
    console.log(`wrote ${Object.keys(compileAll()).length} files to libs/i18n/src/generated`);
  }
}
