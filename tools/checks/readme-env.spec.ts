import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Every environment variable a newcomer can set is named in the README's configuration section (issue 23 §3): the
 * variables are read from each app's and tool's zod config schema, so a new variable without a README line fails here.
 */
const ROOT = path.resolve(__dirname, '..', '..');

function configFiles(): string[] {
  const apps = readdirSync(path.join(ROOT, 'apps')).map((app) => path.join(ROOT, 'apps', app, 'src', 'config.ts'));
  const tools = readdirSync(path.join(ROOT, 'tools')).map((tool) => path.join(ROOT, 'tools', tool, 'config.ts'));
  return [...apps, ...tools].filter((file) => existsSync(file));
}

/** The keys of the env schemas: `  NAME: envVar…` / `  NAME: optionalVar(…)` / `  NAME: z…` lines. */
function schemaVariables(file: string): string[] {
  const names = [
    ...readFileSync(file, 'utf8').matchAll(/^\s+([A-Z][A-Z0-9_]{2,}):\s*(?:envVar|optionalVar|z)\b/gm),
  ].map((m) => m[1]!);
  return [...new Set(names)];
}

describe('README configuration', () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const named = (name: string) =>
    readme.includes(`\`${name}\``) || [...readme.matchAll(/`([A-Z_]+)_\*`/g)].some((m) => name.startsWith(`${m[1]}_`));

  it('names every variable of every app, the launcher and the tools (DEMO_PORT, DEMO_URL, the wallet and bench ones too)', () => {
    const files = configFiles();
    expect(files.map((f) => path.relative(ROOT, f))).toEqual(
      expect.arrayContaining([
        'apps/quote-api/src/config.ts',
        'tools/launcher/config.ts',
        'tools/admin/config.ts',
        'tools/bench/config.ts',
      ]),
    );
    const variables = files.flatMap((file) =>
      schemaVariables(file).map((name) => ({ name, file: path.relative(ROOT, file) })),
    );
    expect(variables.map((v) => v.name)).toEqual(
      expect.arrayContaining(['DEMO_PORT', 'DEMO_URL', 'QUOTE_API_URL', 'MIGRATIONS_DIR']),
    );

    expect(variables.filter((v) => !named(v.name))).toEqual([]);
  });
});
