import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Browser code is first-class: a project tagged `platform:browser` type-checks with the DOM lib and without Node
 * types, may import the universal libs (contracts, its zod-free widget protocol), and lint refuses it a Node-only
 * lib. Proven on a throwaway browser project added to a copy of this workspace (node_modules linked, not copied).
 */
const ROOT = path.resolve(__dirname, '..', '..');
const SKIP = new Set(['node_modules', '.git', '.nx', 'dist', 'tmp', '.data', 'coverage', 'generated']);

interface LintMessage {
  ruleId: string | null;
  message: string;
}
interface LintResult {
  filePath: string;
  messages: LintMessage[];
}

function run(cwd: string, args: string[]) {
  const result = spawnSync(process.execPath, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', NX_SKIP_NX_CACHE: 'true' },
    timeout: 180_000,
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

function write(file: string, content: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

describe('a platform:browser project', () => {
  let workspace: string;
  let probe: string;

  beforeAll(() => {
    workspace = mkdtempSync(path.join(tmpdir(), 'expedition-browser-probe-'));
    cpSync(ROOT, workspace, { recursive: true, filter: (source) => !SKIP.has(path.basename(source)) });
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(workspace, 'node_modules'), 'dir');
    probe = path.join(workspace, 'apps', 'browser-probe');
    write(
      path.join(probe, 'project.json'),
      JSON.stringify({
        name: 'browser-probe',
        sourceRoot: 'apps/browser-probe/src',
        projectType: 'application',
        tags: ['type:app', 'scope:browser-probe', 'platform:browser'],
      }),
    );
    write(path.join(probe, 'eslint.config.mjs'), "export { default } from '../../eslint.config.mjs';\n");
    const tsconfig = (files: string[]) =>
      JSON.stringify({
        extends: '../../tsconfig.base.json',
        compilerOptions: { lib: ['ES2023', 'DOM'], types: [] },
        files,
      });
    write(path.join(probe, 'tsconfig.json'), tsconfig(['src/main.ts', 'src/schemas.ts']));
    write(path.join(probe, 'tsconfig.node-api.json'), tsconfig(['src/node-api.ts']));
    write(
      path.join(probe, 'src', 'main.ts'),
      [
        "import { WIDGET_EVENT_NAMES, WIDGET_MESSAGE_PREFIX, type WidgetEventMessage } from '@expedition/contracts/widget-protocol';",
        '',
        'export function onMessage(event: MessageEvent<WidgetEventMessage>): string | undefined {',
        '  const name = event.data.type.slice(WIDGET_MESSAGE_PREFIX.length);',
        '  return (WIDGET_EVENT_NAMES as readonly string[]).includes(name) ? name : undefined;',
        '}',
        "window.addEventListener('message', (event: MessageEvent<WidgetEventMessage>) => onMessage(event));",
        "document.body.append(document.createElement('iframe'));",
        '',
      ].join('\n'),
    );
    write(
      path.join(probe, 'src', 'schemas.ts'),
      "import { QuoteSelectedEventSchema } from '@expedition/contracts';\n\nexport const parse = (v: unknown) => QuoteSelectedEventSchema.parse(v);\n",
    );
    write(path.join(probe, 'src', 'node-api.ts'), 'export const mode = process.env.NODE_ENV;\n');
    write(
      path.join(probe, 'src', 'uses-db.ts'),
      "import { createDatabase } from '@expedition/db';\n\nexport const open = createDatabase;\n",
    );
  }, 60_000);

  afterAll(() => {
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('type-checks with the DOM lib and without Node types, importing contracts and its widget protocol', () => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const browser = run(workspace, [tsc, '-p', 'apps/browser-probe/tsconfig.json', '--noEmit']);
    expect(browser.output.trim()).toBe('');
    expect(browser.status).toBe(0);

    const nodeApi = run(workspace, [tsc, '-p', 'apps/browser-probe/tsconfig.node-api.json', '--noEmit']);
    expect(nodeApi.status).not.toBe(0);
    expect(nodeApi.output).toMatch(/Cannot find name 'process'/);
  });

  it('fails lint when it imports a Node-only lib (db), and passes for the universal libs', () => {
    // The module-boundary rule reads Nx's project graph: compute it for the copy first.
    const graph = run(workspace, [path.join(ROOT, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'), 'show', 'projects']);
    expect(graph.output).toContain('browser-probe');

    const eslint = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
    const lint = run(probe, [eslint, '--format', 'json', 'src']);
    const results = JSON.parse(
      lint.output.slice(lint.output.indexOf('['), lint.output.lastIndexOf(']') + 1),
    ) as LintResult[];
    const byFile = Object.fromEntries(results.map((r) => [path.basename(r.filePath), r.messages]));

    expect(lint.status).not.toBe(0);
    expect(byFile['uses-db.ts']).toEqual([
      expect.objectContaining({
        ruleId: '@nx/enforce-module-boundaries',
        message: expect.stringMatching(
          /tagged with "platform:browser" can only depend on libs tagged with "platform:universal"/,
        ),
      }),
    ]);
    expect(byFile['main.ts']).toEqual([]);
    expect(byFile['schemas.ts']).toEqual([]);
  });
});
