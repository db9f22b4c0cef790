import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The first render's JavaScript stays ≤ 30 KB gzipped (issue 8 §3): the entry plus every chunk it imports statically.
 * Lazy chunks (the Tier 3 checkout, loaded with import()) do not count. Reads the bundle (`nx run widget-frame:bundle`,
 * which this project's test target depends on).
 */
const DIST = path.resolve(__dirname, '../../../../dist/browser/widget-frame');
const BUDGET = 30 * 1024;

interface Manifest {
  entries: Record<string, string>;
  css: Record<string, string>;
  files: Record<string, { bytes: number }>;
}

function staticImports(code: string): string[] {
  const found = new Set<string>();
  // `import{a}from"./x.js"` / `import"./x.js"` at statement level; `import("./x.js")` is lazy and skipped.
  for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([^"']+)["']/g)) found.add(m[1]!);
  for (const m of code.matchAll(/(?:^|[;}\s])export\s*(?:[\w$*{}\s,]+)from\s*["']\.\/([^"']+)["']/g)) found.add(m[1]!);
  return [...found];
}

export function firstRenderFiles(manifest: Manifest, read: (file: string) => string, entry = 'frame'): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const dep of staticImports(read(file))) visit(dep);
  };
  visit(manifest.entries[entry]!);
  return [...seen];
}

describe('widget-frame bundle', () => {
  const manifestPath = path.join(DIST, 'manifest.json');
  if (!existsSync(manifestPath)) {
    it('is built first (npx nx run widget-frame:bundle)', () => {
      throw new Error(`${manifestPath} is missing: run npx nx run widget-frame:bundle`);
    });
    return;
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const read = (file: string) => readFileSync(path.join(DIST, file), 'utf8');

  it('has one entry and one stylesheet, in the preset manifest format the widget server reads', () => {
    expect(Object.keys(manifest.entries)).toEqual(['frame']);
    expect(Object.keys(manifest.css)).toEqual(['frame']);
    for (const file of [manifest.entries['frame']!, manifest.css['frame']!])
      expect(manifest.files[file]?.bytes).toBeGreaterThan(0);
  });

  const gz = (files: string[]) =>
    files.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length, 0);
  /** The texts of one language: the chunk libs/i18n's `import()` makes (widget.<lang>-<hash>.js) and what it imports. */
  const languageChunks = (lang: string) => {
    const chunk = Object.keys(manifest.files).find((f) => new RegExp(`^widget\\.${lang}-[A-Za-z0-9_-]+\\.js$`).test(f));
    if (!chunk) throw new Error(`no texts chunk for ${lang}`);
    return firstRenderFiles({ ...manifest, entries: { [lang]: chunk } }, read, lang);
  };

  it.each(['en', 'de', 'fr', 'es'])(
    `ships at most ${BUDGET / 1024} KB gzipped JavaScript for the first render WITH its language (%s)`,
    (lang) => {
      const files = [...new Set([...firstRenderFiles(manifest, read), ...languageChunks(lang)])];
      const gzipped = gz(files);
      console.log(
        `widget-frame first render in ${lang}: ${files.join(', ')} = ${(gzipped / 1024).toFixed(1)} KB gzipped`,
      );
      expect(gzipped).toBeLessThanOrEqual(BUDGET);
    },
  );

  it('loads the other languages only when chosen: no texts chunk is a static import of the entry', () => {
    const files = firstRenderFiles(manifest, read);
    expect(files.filter((f) => f.startsWith('widget.'))).toEqual([]);
    for (const lang of ['en', 'de', 'fr', 'es', 'en-XA']) expect(languageChunks(lang).length).toBeGreaterThan(0);
    // The entry holds no sentence of any language (they live in the chunks).
    const entry = read(manifest.entries['frame']!);
    for (const text of ['Protect your trip', 'Sichern Sie Ihre Reise ab', 'Protégez votre voyage', 'Proteja su viaje'])
      expect(entry).not.toContain(text);
  });

  it('keeps the Tier 3 checkout out of the first render (a lazy chunk)', () => {
    const files = firstRenderFiles(manifest, read);
    const lazy = Object.keys(manifest.files).filter((f) => f.endsWith('.js') && !files.includes(f));
    expect(lazy.some((f) => f.startsWith('checkout-'))).toBe(true);
  });

  it('counts static imports and skips dynamic ones', () => {
    const fake: Record<string, string> = {
      'a.js': 'import{x}from"./b.js";import("./c.js")',
      'b.js': 'export const x=1',
      'c.js': '',
    };
    expect(firstRenderFiles({ entries: { frame: 'a.js' }, css: {}, files: {} }, (f) => fake[f]!)).toEqual([
      'a.js',
      'b.js',
    ]);
  });
});
