import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  LOCALES,
  MESSAGES_DIR,
  ROOT,
  leaves,
  namespaces,
  placeholders,
  pseudoMessage,
  readCatalog,
  staleFiles,
} from '../scripts/compile-messages';

/**
 * The quality gates of the catalogs (issue 22): CI fails on a missing or extra key, a placeholder that differs
 * between languages, a message nobody uses, a compiled output that is not the catalogs', or an insurance term not
 * translated as the glossary says.
 */
const REPO = join(ROOT, '..', '..');

describe.each(namespaces())('the %s catalogs', (namespace) => {
  const english = new Map(leaves(readCatalog(namespace, 'en')));

  it.each(LOCALES.filter((l) => l !== 'en'))('%s has exactly the English keys (none missing, none extra)', (locale) => {
    const keys = leaves(readCatalog(namespace, locale)).map(([k]) => k);
    expect({
      missing: [...english.keys()].filter((k) => !keys.includes(k)),
      extra: keys.filter((k) => !english.has(k)),
    }).toEqual({
      missing: [],
      extra: [],
    });
  });

  it.each(LOCALES.filter((l) => l !== 'en'))(
    '%s uses the same placeholders as English in every message, each the same way',
    (locale) => {
      const differ = leaves(readCatalog(namespace, locale))
        .filter(([key, message]) => {
          const en = english.get(key);
          return (
            en !== undefined &&
            JSON.stringify([...placeholders(en)].sort()) !== JSON.stringify([...placeholders(message)].sort())
          );
        })
        .map(([key]) => key);
      expect(differ).toEqual([]);
    },
  );

  it('has no message that is empty or the same as its key', () => {
    for (const locale of LOCALES) {
      for (const [key, message] of leaves(readCatalog(namespace, locale))) {
        expect(`${locale}:${key}:${message.trim().length > 0 && message !== key}`).toBe(`${locale}:${key}:true`);
      }
    }
  });
});

describe('the compiled messages (src/generated)', () => {
  it('are what the catalogs compile to (run npm run i18n:compile after editing a catalog)', () => {
    expect(staleFiles()).toEqual([]);
  });
});

/** Every .ts/.tsx source file of the repository that could show a message, except the catalogs' own files. */
function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (['node_modules', 'dist', 'tmp', '.data', 'generated', '.git'].includes(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.spec.ts') && !path.startsWith(ROOT)) out.push(path);
  }
  return out;
}

describe('message usage', () => {
  // The catalog namespace is keyed by catalog ids (plan, destination) and read by id: libs/policy-documents checks
  // that it holds exactly the catalog's entries. Every other message is called by its key (`p.heading()`, often
  // through its section: `const p = m.policyPage`) or named as a string where a table picks it (`'residentsUS'`).
  const dynamic = new Set(['catalog']);

  it('has no unused message: each key is called somewhere (`.<key>(` or a quoted key), its section read', () => {
    const sources = ['apps', 'libs', 'tools']
      .flatMap((d) => sourceFiles(join(REPO, d)))
      .map((f) => readFileSync(f, 'utf8'));
    const used = (pattern: RegExp) => sources.some((text) => pattern.test(text));
    const unused = namespaces()
      .filter((ns) => !dynamic.has(ns))
      .flatMap((ns) => leaves(readCatalog(ns, 'en')).map(([key]) => `${ns}:${key}`))
      .filter((id) => {
        const path = id.split(':')[1]!.split('.');
        const leaf = path[path.length - 1]!;
        const sections = path.slice(0, -1);
        return (
          !used(new RegExp(`(\\.${leaf}\\(|['"]${leaf}['"])`)) ||
          !sections.every((section) => used(new RegExp(`(\\.${section}\\b|\\b${section}: )`)))
        );
      });
    expect(unused).toEqual([]);
  });
});

describe('the glossary (docs/glossary.md)', () => {
  interface Term {
    en: string[];
    forms: Record<string, string[]>;
  }
  const forms = (cell: string) =>
    cell
      .split(' / ')
      .map((f) => f.trim().toLowerCase())
      .filter(Boolean);
  const rows = readFileSync(join(REPO, 'docs', 'glossary.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| English') && !line.startsWith('|---'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  const terms: Term[] = rows
    .filter(([en]) => !en!.endsWith('*'))
    .map(([en, de, fr, es]) => ({ en: forms(en!), forms: { de: forms(de!), fr: forms(fr!), es: forms(es!) } }))
    // Longest first: "policy wording" is checked as itself, then "policy" in what is left.
    .sort((a, b) => Math.max(...b.en.map((s) => s.length)) - Math.max(...a.en.map((s) => s.length)));

  /** Uses the glossary allows not to follow, each for a reason. */
  const EXCEPTIONS: Record<string, string> = {
    'catalog:plans.savanna-ultimate|premium': '"Premium safari cover": the adjective (top of the range), not the price',
    'catalog:exclusions.outsideCover|cover': '"the plan does not cover": the verb, not the noun',
    'catalog:highlights.noTravelerLimit|limit':
      '"no traveler limit": no cap on how many people travel, not a benefit\'s limit',
    'catalog:tiers.premium|premium': 'the name of the top tier, not the price',
    'widget:plans.premium|premium': '"Premium cover": the name of the top tier, not the price',
  };

  it('lists terms in every language', () => {
    expect(terms.length).toBeGreaterThan(15);
    for (const t of terms) expect(Object.values(t.forms).every((f) => f.length > 0)).toBe(true);
  });

  it.each(LOCALES.filter((l) => l !== 'en'))(
    'is followed in %s: an English message with a term has that term translated',
    (locale) => {
      const misses: string[] = [];
      for (const ns of namespaces()) {
        const translated = new Map(leaves(readCatalog(ns, locale)));
        for (const [key, message] of leaves(readCatalog(ns, 'en'))) {
          let text = message.replace(/\{\w+\}/g, ' ').toLowerCase();
          const target = (translated.get(key) ?? '').toLowerCase();
          for (const term of terms) {
            const pattern = new RegExp(
              `\\b(${term.en.map((e) => e.replace(/[-.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`,
              'g',
            );
            if (!pattern.test(text)) continue;
            text = text.replace(pattern, ' ');
            if (EXCEPTIONS[`${ns}:${key}|${term.en[0]}`]) continue;
            if (!term.forms[locale]!.some((f) => target.includes(f)))
              misses.push(`${ns}:${key} "${term.en[0]}" → ${term.forms[locale]!.join(' / ')}`);
          }
        }
      }
      expect(misses).toEqual([]);
    },
  );
});

describe('the pseudo-locale', () => {
  it('accents every letter, keeps placeholders and plural syntax, and makes texts about 40 % longer', () => {
    const message = 'Send your claim to {email} within {days, plural, one {# day} other {# days}}.';
    const pseudo = pseudoMessage(message);
    expect(pseudo).toMatch(
      /^\[Šéñð ýööüŕ çļááíɱ ţöö \{email\} ŵíţĥííñ \{days, plural, one \{# ðáý\} other \{# ðáýš\}\}\. [· ]+\]$/,
    );
    const all = namespaces().flatMap((ns) => leaves(readCatalog(ns, 'en')).map(([, m]) => m));
    const ratio = all.reduce((sum, m) => sum + pseudoMessage(m).length, 0) / all.reduce((sum, m) => sum + m.length, 0);
    expect(ratio).toBeGreaterThan(1.3);
    expect(ratio).toBeLessThan(1.6);
  });

  it('is never written by hand (it is made from English)', () => {
    expect(readdirSync(join(MESSAGES_DIR, 'documents')).sort()).toEqual(LOCALES.map((l) => `${l}.json`).sort());
    expect(relative(REPO, MESSAGES_DIR)).toBe(join('libs', 'i18n', 'messages'));
  });
});

/**
 * Every sentence true: nothing tells a traveler that somebody will write, call or follow up, because nothing in the
 * platform notifies a person about a quote it cannot price or a link it cannot take payment for (docs/decisions.md).
 * The texts say whom to ask instead. A catalog that promises contact again fails here.
 */
describe('no catalog promises that a person will get in touch', () => {
  const promises = [
    /follow(s)? up/i,
    /will (contact|get in touch|call|reply)/i,
    /meldet sich/i,
    /wird sich .* melden/i,
    /vous (répondra|contactera|recontactera)/i,
    /(le|te) (responderá|contactará)/i,
    /se pondrá en contacto/i,
  ];
  it.each(namespaces().flatMap((n) => LOCALES.map((l) => [n, l] as const)))('%s in %s', (namespace, locale) => {
    const found = leaves(readCatalog(namespace, locale))
      .filter(([, message]) => promises.some((p) => p.test(message)))
      .map(([key, message]) => `${key}: ${message}`);
    expect(found).toEqual([]);
  });
});
