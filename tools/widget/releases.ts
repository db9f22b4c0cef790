/**
 * Published pinned loaders (`GET /widget/<x.y.z>.js`): apps/widget-iframe/releases/widget-<x.y.z>.js plus manifest.json
 * `{ current, versions: { "<x.y.z>": { file, sha256, bytes, publishedAt } } }`. A published file is never changed or
 * removed (docs/contract.md, Versioning 3); apps/widget-iframe/loader/test/releases.spec.ts checks every checksum.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

export const workspaceRoot = path.resolve(__dirname, '../..');
export const RELEASES_DIR = path.join(workspaceRoot, 'apps/widget-iframe/releases');
export const LOADER_BUILD = path.join(workspaceRoot, 'dist/browser/widget-loader/widget.js');
export const VERSION_PATTERN = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

export interface ReleaseEntry {
  file: string;
  sha256: string;
  bytes: number;
  publishedAt: string;
}
export interface ReleaseManifest {
  current: string | null;
  versions: Record<string, ReleaseEntry>;
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export function readManifest(dir = RELEASES_DIR): ReleaseManifest {
  const file = path.join(dir, 'manifest.json');
  if (!existsSync(file)) return { current: null, versions: {} };
  return JSON.parse(readFileSync(file, 'utf8')) as ReleaseManifest;
}

/** Evaluates a loader build in an empty sandbox with a fake page and returns the `SvcWidget.version` it reports. */
export function loaderVersionOf(source: string): string {
  const window: Record<string, unknown> = {};
  const document = {
    currentScript: { src: 'https://widget.invalid/widget.js' },
    baseURI: 'https://widget.invalid/',
    querySelector: () => null,
  };
  vm.runInNewContext(source, { window, document, console, URL }, { timeout: 1000 });
  const api = window['SvcWidget'] as { version?: unknown } | undefined;
  if (!api || typeof api.version !== 'string') throw new Error('the build defines no window.SvcWidget.version');
  return api.version;
}

const compare = (a: string, b: string) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};

/**
 * Publishes `build` as pinned `version`. Refuses a malformed or existing version and a build reporting another
 * version. `current` becomes the highest published version.
 */
export function publishRelease(options: { version: string; build: Buffer; dir?: string; now?: Date }): ReleaseEntry {
  const { version, build } = options;
  const dir = options.dir ?? RELEASES_DIR;
  if (!VERSION_PATTERN.test(version)) throw new Error(`"${version}" is not a version x.y.z`);
  const manifest = readManifest(dir);
  const file = `widget-${version}.js`;
  if (manifest.versions[version] || existsSync(path.join(dir, file))) {
    throw new Error(
      `${version} is already published: a pinned URL serves the same bytes forever; publish a new version`,
    );
  }
  const reported = loaderVersionOf(build.toString('utf8'));
  if (reported !== version) {
    throw new Error(
      `the build reports version ${reported}, not ${version}: set LOADER_VERSION in apps/widget-iframe/loader/src/version.ts and rebuild`,
    );
  }
  const entry: ReleaseEntry = {
    file,
    sha256: sha256(build),
    bytes: build.length,
    publishedAt: (options.now ?? new Date()).toISOString(),
  };
  const versions = Object.fromEntries(
    Object.entries({ ...manifest.versions, [version]: entry }).sort(([a], [b]) => compare(a, b)),
  );
  const current = Object.keys(versions).sort(compare).at(-1) ?? version;
  // The file first: a manifest never names a file that is not there.
  writeFileSync(path.join(dir, file), build, { flag: 'wx' });
  writeFileSync(path.join(dir, 'manifest.json'), `${JSON.stringify({ current, versions }, null, 2)}\n`);
  return entry;
}
