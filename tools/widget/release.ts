/**
 * `npm run widget:release -- <x.y.z>`: builds the loader (apps/widget-iframe/loader) and publishes the build as the
 * pinned loader `/widget/<x.y.z>.js` in apps/widget-iframe/releases (file + checksum manifest). Refuses a version
 * already published, and a build whose `SvcWidget.version` is not <x.y.z>. Commit the two files it writes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LOADER_BUILD, RELEASES_DIR, publishRelease, workspaceRoot } from './releases';

function main(): void {
  const version = process.argv[2];
  if (!version) {
    console.error('usage: npm run widget:release -- <x.y.z>');
    process.exit(2);
  }
  execFileSync(
    process.execPath,
    [
      path.join(workspaceRoot, 'node_modules/rollup/dist/bin/rollup'),
      '-c',
      'apps/widget-iframe/loader/rollup.config.mjs',
    ],
    {
      cwd: workspaceRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    const entry = publishRelease({ version, build: readFileSync(LOADER_BUILD) });
    const where = path.relative(workspaceRoot, RELEASES_DIR);
    console.log(`published ${version}: ${where}/${entry.file} (${entry.bytes} bytes, sha256 ${entry.sha256})`);
    console.log(
      `served at {WIDGET_URL}/widget/${version}.js; add a "Loader and widget events" entry to CHANGELOG.md and commit ${where}.`,
    );
  } catch (err) {
    console.error(`widget:release refused: ${(err as Error).message}`);
    process.exit(1);
  }
}

main();
