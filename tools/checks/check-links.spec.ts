import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findLinkProblems, headingAnchors, markdownFiles } from './check-links';

describe('links of the repository documentation', () => {
  it('all resolve inside the repository (README.md, CHANGELOG.md, docs/, every project README)', () => {
    const files = markdownFiles().map((file) => path.relative(path.resolve(__dirname, '..', '..'), file));
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'CHANGELOG.md',
        'docs/contract.md',
        'docs/decisions.md',
        'docs/integration-guide.md',
      ]),
    );
    expect(findLinkProblems()).toEqual([]);
  });

  it('reports a missing file, a link out of the repository, ../shared, and an anchor with no heading', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'expedition-links-'));
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docs', 'guide.md'), '# Guide\n\n## Verify a `policy.issued` webhook\n');
    writeFileSync(
      path.join(root, 'README.md'),
      [
        '# Readme',
        '[ok](docs/guide.md#verify-a-policyissued-webhook) [here](#readme) [web](https://example.com)',
        '[gone](docs/missing.md)',
        '[spec](../shared/spec/SERVICE-SPEC.md)',
        '[out](../../etc/passwd)',
        '[bad anchor](docs/guide.md#nowhere)',
        '```',
        '[in code](nothing.md)',
        '```',
        '`[in a span](nothing.md)`',
      ].join('\n'),
    );
    expect(findLinkProblems(root)).toEqual([
      'README.md:4: refers to ../shared, which exists only beside our CI checkout; use the docs/ of this repository',
      'README.md:3: docs/missing.md does not exist',
      'README.md:4: ../shared/spec/SERVICE-SPEC.md points outside the repository',
      'README.md:5: ../../etc/passwd points outside the repository',
      'README.md:6: docs/guide.md#nowhere names no heading of docs/guide.md',
    ]);
  });

  it('reports a repository path in inline code that does not exist; placeholders, patterns and ignored output are not paths', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'expedition-code-paths-'));
    mkdirSync(path.join(root, 'tools', 'e2e'), { recursive: true });
    writeFileSync(path.join(root, 'tools', 'e2e', 'harness.ts'), '');
    writeFileSync(path.join(root, '.gitignore'), 'dist/\ntools/topology/results/\n*.log\n');
    writeFileSync(
      path.join(root, 'README.md'),
      [
        '# Readme',
        'Ports come from `tools/e2e/harness.ts` (`tools/e2e/harness.ts:12`, the folder `tools/e2e/`).',
        'Ports came from `tools/e2e/free-ports.ts`; | `tools/gone/` | in a table too.',
        'Not paths: `apps/<app>/.data/`, `tools/*.ts`, `libs/x/{a,b}`, `npm run docs:check`, `@expedition/platform/testing`.',
        'Made by a run: `dist/apps/quote-api/main.js`, `tools/topology/results/latest.json`; elsewhere: `src/main.ts`.',
        '```',
        'tools/e2e/in-a-fence.ts `tools/e2e/in-a-fence.ts`',
        '```',
      ].join('\n'),
    );
    expect(findLinkProblems(root)).toEqual([
      'README.md:3: `tools/e2e/free-ports.ts` (a code path) does not exist',
      'README.md:3: `tools/gone/` (a code path) does not exist',
    ]);
  });

  it('computes anchors the way GitHub does', () => {
    expect([
      ...headingAnchors('# The money path\n## `policy.issued` webhook\n## Operators: the admin CLI\n## A\n## A\n'),
    ]).toEqual(['the-money-path', 'policyissued-webhook', 'operators-the-admin-cli', 'a', 'a-1']);
  });
});
