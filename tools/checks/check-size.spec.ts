import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { countLines, DATA_FILES, findOversizedFiles, isDataFile, MAX_LINES } from './check-size';

const lines = (count: number) => 'export const x = 1;\n'.repeat(count);

function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'expedition-size-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('source file size check', () => {
  it('allows 400 lines and refuses 401 (the limit is 400, tests included)', () => {
    expect(MAX_LINES).toBe(400);
    const root = fixture({
      'apps/a/src/at-limit.ts': lines(400),
      'apps/a/src/over.ts': lines(401),
      'apps/a/test/over.spec.ts': lines(401),
      'libs/b/ui/page.tsx': lines(401),
      'tools/c/script.mjs': lines(401),
      'tools/c/config.cjs': lines(401),
      'tools/c/plain.js': lines(401),
    });
    expect(findOversizedFiles(root)).toEqual([
      { file: 'apps/a/src/over.ts', lines: 401 },
      { file: 'apps/a/test/over.spec.ts', lines: 401 },
      { file: 'libs/b/ui/page.tsx', lines: 401 },
      { file: 'tools/c/config.cjs', lines: 401 },
      { file: 'tools/c/plain.js', lines: 401 },
      { file: 'tools/c/script.mjs', lines: 401 },
    ]);
  });

  it('exempts only the listed data files, and reads no other kind of file', () => {
    const root = fixture({
      'libs/domain-pricing/src/lib/catalog/plans.catalog.ts': lines(900),
      'libs/domain-pricing/src/lib/catalog/rates.table.ts': lines(900),
      'libs/domain-pricing/src/lib/catalog/sync.ts': lines(401),
      'libs/db/src/generated/prisma/models/Quote.ts': lines(900),
      'libs/i18n/src/generated/widget.en.ts': lines(900),
      'apps/widget-iframe/releases/widget-1.0.0.js': lines(900),
      'apps/a/src/data.json': lines(900),
      'apps/a/README.md': lines(900),
      'apps/a/node_modules/dep/index.js': lines(900),
      'apps/a/dist/main.js': lines(900),
    });
    expect(findOversizedFiles(root)).toEqual([{ file: 'libs/domain-pricing/src/lib/catalog/sync.ts', lines: 401 }]);
  });

  it('matches the data patterns within their folders only', () => {
    expect(DATA_FILES.length).toBeGreaterThan(0);
    expect(isDataFile('libs/domain-pricing/src/lib/catalog/plans.catalog.ts')).toBe(true);
    expect(isDataFile('libs/domain-pricing/src/lib/catalog/nested/plans.catalog.ts')).toBe(false);
    expect(isDataFile('libs/domain-pricing/src/lib/plans.catalog.ts')).toBe(false);
    expect(isDataFile('libs/db/prisma/migrations/20261121211430_init/migration.ts')).toBe(true);
    expect(isDataFile('libs/db/src/client.ts')).toBe(false);
  });

  it('counts lines as an editor numbers them', () => {
    expect([countLines(''), countLines('a'), countLines('a\n'), countLines('a\nb'), countLines('a\n\n')]).toEqual([
      0, 1, 1, 2, 2,
    ]);
  });
});
