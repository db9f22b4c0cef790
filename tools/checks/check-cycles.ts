/**
 * No import cycles in our code: apps, libs and tools, with every `@expedition/*` path alias of tsconfig.base.json
 * resolved to the file it names, so a circle that leaves a project through its public index and comes back is
 * found too. Type-only imports count: a circle of types still ties the files together (neither can move or be read
 * alone). `npm run check:cycles` (CI) runs it; the tools project's spec proves it on small fixtures.
 *
 * madge 8 rather than dependency-cruiser 18: dependency-cruiser 18 requires Node 22 and we support Node 20.
 */
import madge from 'madge';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CYCLE_ROOTS = ['apps', 'libs', 'tools'];

/** Not ours to untangle: installed packages, build output, generated code (the Prisma client, compiled messages). */
const EXCLUDE = [/(^|\/)node_modules\//, /(^|\/)dist\//, /(^|\/)generated\//];

/** Each cycle as its files (relative to root), in import order: each imports the next, the last the first. */
export async function findCycles(
  root: string = ROOT,
  roots: string[] = CYCLE_ROOTS,
  tsConfig = 'tsconfig.base.json',
): Promise<string[][]> {
  const graph = await madge(
    roots.map((dir) => path.join(root, dir)),
    {
      baseDir: root,
      fileExtensions: ['ts', 'tsx', 'mts', 'cts', 'mjs', 'cjs', 'js'],
      tsConfig: path.join(root, tsConfig),
      excludeRegExp: EXCLUDE,
    },
  );
  return graph.circular();
}

export function describeCycle(cycle: string[]): string {
  return [...cycle, cycle[0]].join(' → ');
}

if (require.main === module) {
  findCycles().then(
    (cycles) => {
      for (const cycle of cycles) console.error(`cycles: ${describeCycle(cycle)}`);
      if (cycles.length) console.error(`cycles: ${cycles.length} import cycle(s); break each (see README, Commands)`);
      else console.log(`cycles: no import cycle in ${CYCLE_ROOTS.join(', ')}`);
      process.exit(cycles.length ? 1 : 0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(2);
    },
  );
}
