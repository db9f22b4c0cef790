import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeCycle, findCycles } from './check-cycles';

/** A throwaway repository: a tsconfig with one path alias and the given files. */
function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'expedition-cycles-'));
  const tsconfig = { compilerOptions: { baseUrl: '.', paths: { '@fixture/b': ['libs/b/src/index.ts'] } } };
  writeFileSync(path.join(root, 'tsconfig.base.json'), JSON.stringify(tsconfig));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('import cycle check', () => {
  it('finds a cycle that leaves a project through a path alias and comes back', async () => {
    const root = fixture({
      'libs/a/src/a.ts': "import { b } from '@fixture/b';\nexport const a = () => b;\n",
      'libs/b/src/index.ts': "export { b } from './b';\n",
      'libs/b/src/b.ts': "import { a } from '../../a/src/a';\nexport const b = () => a;\n",
    });
    const cycles = await findCycles(root, ['libs']);
    expect(cycles.map(describeCycle)).toEqual([
      'libs/a/src/a.ts → libs/b/src/index.ts → libs/b/src/b.ts → libs/a/src/a.ts',
    ]);
  });

  it('counts type-only imports, across .ts and .tsx', async () => {
    const root = fixture({
      'apps/x/src/context.ts': "import type { View } from './view';\nexport interface Context { view: View }\n",
      'apps/x/src/view.tsx': "import type { Context } from './context';\nexport type View = (c: Context) => null;\n",
    });
    expect(await findCycles(root, ['apps'])).toEqual([['apps/x/src/context.ts', 'apps/x/src/view.tsx']]);
  });

  it('is quiet on a tree without cycles, and skips generated code and build output', async () => {
    const root = fixture({
      'libs/a/src/a.ts': "import { b } from '@fixture/b';\nexport const a = () => b;\n",
      'libs/b/src/index.ts': 'export const b = 1;\n',
      'libs/db/src/generated/one.ts': "import { two } from './two';\nexport const one = () => two;\n",
      'libs/db/src/generated/two.ts': "import { one } from './one';\nexport const two = () => one;\n",
      'libs/db/dist/one.js': "import { two } from './two';\nexport const one = () => two;\n",
      'libs/db/dist/two.js': "import { one } from './one';\nexport const two = () => one;\n",
    });
    expect(await findCycles(root, ['libs'])).toEqual([]);
  });
});
