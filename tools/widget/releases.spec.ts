import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loaderVersionOf, publishRelease, readManifest, sha256 } from './releases';

const fakeBuild = (version: string) =>
  Buffer.from(`!function(){"undefined"!=typeof window&&(window.SvcWidget={version:${JSON.stringify(version)}})}();`);

describe('widget:release (publishRelease)', () => {
  const dir = () => mkdtempSync(path.join(tmpdir(), 'widget-releases-'));

  it('publishes a build as a pinned version: the file, its checksum and the newest version as current', () => {
    const d = dir();
    publishRelease({ version: '1.0.0', build: fakeBuild('1.0.0'), dir: d, now: new Date('2026-11-23T12:00:00Z') });
    publishRelease({ version: '1.1.0', build: fakeBuild('1.1.0'), dir: d, now: new Date('2026-12-01T12:00:00Z') });
    publishRelease({ version: '1.0.1', build: fakeBuild('1.0.1'), dir: d, now: new Date('2026-12-02T12:00:00Z') });
    const manifest = readManifest(d);
    expect(manifest.current).toBe('1.1.0');
    expect(Object.keys(manifest.versions)).toEqual(['1.0.0', '1.0.1', '1.1.0']);
    expect(manifest.versions['1.0.0']).toEqual({
      file: 'widget-1.0.0.js',
      sha256: sha256(fakeBuild('1.0.0')),
      bytes: fakeBuild('1.0.0').length,
      publishedAt: '2026-11-23T12:00:00.000Z',
    });
    expect(readFileSync(path.join(d, 'widget-1.0.1.js'))).toEqual(fakeBuild('1.0.1'));
  });

  it('refuses a version already published (even with the same bytes), leaving the files as they were', () => {
    const d = dir();
    publishRelease({ version: '1.0.0', build: fakeBuild('1.0.0'), dir: d });
    const before = readFileSync(path.join(d, 'manifest.json'), 'utf8');
    expect(() => publishRelease({ version: '1.0.0', build: fakeBuild('1.0.0'), dir: d })).toThrow(
      '1.0.0 is already published',
    );
    expect(readFileSync(path.join(d, 'manifest.json'), 'utf8')).toBe(before);
    // A stray file of that name counts as published too.
    writeFileSync(path.join(d, 'widget-2.0.0.js'), 'x');
    expect(() => publishRelease({ version: '2.0.0', build: fakeBuild('2.0.0'), dir: d })).toThrow('already published');
  });

  it('refuses a malformed version and a build that reports another version', () => {
    const d = dir();
    expect(() => publishRelease({ version: 'v1.0.0', build: fakeBuild('1.0.0'), dir: d })).toThrow(
      'not a version x.y.z',
    );
    expect(() => publishRelease({ version: '1.0', build: fakeBuild('1.0.0'), dir: d })).toThrow('not a version x.y.z');
    expect(() => publishRelease({ version: '1.2.0', build: fakeBuild('1.1.0'), dir: d })).toThrow(
      'reports version 1.1.0, not 1.2.0',
    );
    expect(readManifest(d)).toEqual({ current: null, versions: {} });
  });

  it('reads the version of a build without a real page', () => {
    expect(loaderVersionOf(fakeBuild('3.4.5').toString())).toBe('3.4.5');
    expect(() => loaderVersionOf('void 0')).toThrow('defines no window.SvcWidget.version');
  });
});
