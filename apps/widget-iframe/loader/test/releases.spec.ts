import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { LOADER_VERSION } from '../src/version';

/**
 * Published pinned loaders (apps/widget-iframe/releases, served at /widget/<x.y.z>.js) never change and never
 * disappear (docs/integration-guide.md §9, "Versions and support"). `npm run widget:release -- <x.y.z>` adds one;
 * nothing else may touch them.
 */
const RELEASES = path.resolve(__dirname, '../../releases');
const BUILD = path.resolve(__dirname, '../../../../dist/browser/widget-loader/widget.js');

/** Every version ever published, with its sha256: a release adds its line here; no line is ever edited or removed. */
const PUBLISHED: Record<string, string> = {
  '1.0.0': '6a6310664940f8853a872a4032d4cc6b3ab0ee926543940d4db52b9f33e6aefc',
  '1.0.1': '1718427842e25c2a939cd25e520e27d5657b0f688ada8e8baaf1212b91784f58',
  '1.0.2': '15ccb45e1d37ff497fa0f9b8a4dacce2392350f500098b2db7c3be59f0c196b5',
  '1.1.0': '3c02040b3b510ffebdf6955257aef2f6b6e24fe4a99bb02585838e323be1bf03',
  '1.1.1': '3cc75ad3f448f5751a5bbed10d0ff33e804de9cdd83ee2a0e132cfda107f880b',
};

interface Manifest {
  current: string;
  versions: Record<string, { file: string; sha256: string; bytes: number; publishedAt: string }>;
}
const manifest = JSON.parse(readFileSync(path.join(RELEASES, 'manifest.json'), 'utf8')) as Manifest;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function reportedVersion(source: string): string {
  const window: Record<string, any> = {};
  const document = {
    currentScript: { src: 'https://widget.invalid/widget.js' },
    baseURI: 'https://widget.invalid/',
    querySelector: () => null,
  };
  vm.runInNewContext(source, { window, document, console, URL });
  return window['SvcWidget'].version;
}

describe('published pinned loaders (apps/widget-iframe/releases)', () => {
  it.each(Object.entries(PUBLISHED))('%s is still published with the same bytes', (version, checksum) => {
    const entry = manifest.versions[version];
    expect(entry).toBeDefined();
    expect(entry!.sha256).toBe(checksum);
    const file = path.join(RELEASES, entry!.file);
    expect(existsSync(file)).toBe(true);
    const bytes = readFileSync(file);
    expect(sha256(bytes)).toBe(checksum);
    expect(bytes.length).toBe(entry!.bytes);
    expect(reportedVersion(bytes.toString('utf8'))).toBe(version);
  });

  it('lists only published versions, each file once, and names the newest as current', () => {
    expect(Object.keys(manifest.versions).sort()).toEqual(Object.keys(PUBLISHED).sort());
    for (const [version, entry] of Object.entries(manifest.versions)) {
      expect(entry.file).toBe(`widget-${version}.js`);
      expect(new Date(entry.publishedAt).toISOString()).toBe(entry.publishedAt);
    }
    const files = readdirSync(RELEASES)
      .filter((f) => f !== 'manifest.json')
      .sort();
    expect(files).toEqual(
      Object.values(manifest.versions)
        .map((e) => e.file)
        .sort(),
    );
    const newest = Object.keys(manifest.versions)
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
      .at(-1);
    expect(manifest.current).toBe(newest);
  });

  it('the current build is either its published version, byte for byte, or a version not published yet', () => {
    // A loader change without a new LOADER_VERSION would make the rolling channel report a published version with
    // other bytes than its pinned file: bump src/version.ts, then `npm run widget:release -- <x.y.z>`.
    const build = readFileSync(BUILD);
    expect(reportedVersion(build.toString('utf8'))).toBe(LOADER_VERSION);
    const published = manifest.versions[LOADER_VERSION];
    if (published) expect(sha256(build)).toBe(published.sha256);
  });
});
