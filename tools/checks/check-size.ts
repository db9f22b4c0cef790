/**
 * No source file over MAX_LINES lines: every .ts, .tsx, .mts, .cts, .mjs, .cjs and .js file under apps/, libs/ and
 * tools/, tests included, counted as committed (CI checks Prettier's formatting first). A file that long does more
 * than one thing: split it by concern, a test file by describe block. Data is exempt, and only the data named in
 * DATA_FILES below. `npm run check:size` (CI) runs it; tools/checks/check-size.spec.ts pins the limit.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const MAX_LINES = 400;
export const SIZE_ROOTS = ['apps', 'libs', 'tools'];
const SOURCE = /\.(ts|tsx|mts|cts|mjs|cjs|js)$/;
/** Never ours or never committed: installed packages, build output, local data, caches. */
const SKIP_DIRS = new Set(['node_modules', 'dist', 'tmp', 'coverage', '.data', '.nx']);

/**
 * Data, not code: long because the data is long, so the limit does not apply. Patterns are relative to the
 * repository root; `*` stays within one folder, `**` crosses folders.
 */
export const DATA_FILES = [
  // The product catalog as data (plans, destinations, carriers) and its lookup tables (rates, exclusions, cards).
  'libs/domain-pricing/src/lib/catalog/*.catalog.ts',
  'libs/domain-pricing/src/lib/catalog/*.table.ts',
  // Generated: the Prisma client (`node tools/scripts/prisma-generate.cjs`) and the compiled message catalogs
  // (`npm run i18n:compile`).
  'libs/db/src/generated/**',
  'libs/i18n/src/generated/**',
  // Migrations are written once by `npm run db:migration:create` and never edited.
  'libs/db/prisma/migrations/**',
  // Released loader builds are immutable bytes pinned by Subresource Integrity hashes (`npm run widget:release`).
  'apps/widget-iframe/releases/**',
];

export function globToRegExp(glob: string): RegExp {
  const pattern = glob
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((literal) => literal.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${pattern}$`);
}

const DATA = DATA_FILES.map(globToRegExp);

export function isDataFile(relativePath: string): boolean {
  return DATA.some((pattern) => pattern.test(relativePath.split(path.sep).join('/')));
}

/** Lines as an editor numbers them: a final newline ends the last line, it does not start another. */
export function countLines(text: string): number {
  if (!text) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Source files under the roots, relative to root with `/`, sorted. */
export function sourceFiles(root: string = ROOT, roots: string[] = SIZE_ROOTS): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(relative);
      } else if (entry.isFile() && SOURCE.test(entry.name)) {
        found.push(relative);
      }
    }
  };
  for (const dir of roots) if (existsSync(path.join(root, dir))) walk(dir);
  return found.sort();
}

/** Every non-data source file over the limit, longest first. */
export function findOversizedFiles(
  root: string = ROOT,
  roots: string[] = SIZE_ROOTS,
): { file: string; lines: number }[] {
  return sourceFiles(root, roots)
    .filter((file) => !isDataFile(file))
    .map((file) => ({ file, lines: countLines(readFileSync(path.join(root, file), 'utf8')) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

if (require.main === module) {
  const oversized = findOversizedFiles();
  for (const { file, lines } of oversized) console.error(`size: ${file} has ${lines} lines (at most ${MAX_LINES})`);
  if (oversized.length) {
    console.error(`size: ${oversized.length} file(s) over ${MAX_LINES} lines; split each by concern`);
  } else {
    console.log(`size: every source file under ${SIZE_ROOTS.join(', ')} has at most ${MAX_LINES} lines (data exempt)`);
  }
  process.exit(oversized.length ? 1 : 0);
}
