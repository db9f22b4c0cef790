import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '@expedition/platform';
import { encodeFile, readEncodedFile, type EncodedFile } from './encodings';

/** `x.y.z`, digits only (no pre-release tags on the pinned channel). */
export const PINNED_VERSION = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/;

/** A loader: its bytes, their strong validator (the quoted sha256, hex) and the brotli and gzip twins. */
export type LoaderFile = EncodedFile;

/** The release manifest L's release command writes (apps/widget-iframe/releases/manifest.json). */
interface ReleaseManifest {
  current?: string;
  versions?: Record<string, { file?: string; sha256?: string; bytes?: number; publishedAt?: string }>;
}

export interface PinnedReleases {
  /** Verified versions: bytes whose sha256 (and length) equal the manifest's. */
  versions: ReadonlyMap<string, LoaderFile>;
  /** Versions listed in the manifest but refused (file missing, bytes differ, bad entry): never served. */
  refused: ReadonlyArray<{ version: string; reason: string }>;
  /** The manifest's `current` version, if it names a verified one. */
  current?: string;
}

/**
 * Reads and verifies the pinned loaders once, at start: a version is served only when its file exists inside the
 * releases directory and its sha256 and byte length equal the manifest's. A mismatch is logged as an error, that
 * version answers 404 (a pinned URL must never serve different bytes) and /readyz reports not ready, so a deploy with
 * altered release files does not take traffic. No manifest at all is zero versions (logged as a warning).
 * The brotli and gzip twins of each verified version are compressed here, once, in memory: the release files
 * themselves are never written.
 */
export function loadPinnedReleases(releasesDir: string, logger?: Pick<Logger, 'warn' | 'error'>): PinnedReleases {
  let manifest: ReleaseManifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(releasesDir, 'manifest.json'), 'utf8')) as ReleaseManifest;
  } catch (err) {
    logger?.warn({ releasesDir, err: (err as Error).message }, 'no pinned loader releases (manifest.json unreadable)');
    return { versions: new Map(), refused: [] };
  }
  const versions = new Map<string, LoaderFile>();
  const refused: Array<{ version: string; reason: string }> = [];
  for (const [version, entry] of Object.entries(manifest.versions ?? {})) {
    const reason = verifyRelease(releasesDir, version, entry, versions);
    if (reason) {
      refused.push({ version, reason });
      logger?.error({ version, reason, releasesDir }, 'pinned loader refused: it will answer 404');
    }
  }
  const current = manifest.current && versions.has(manifest.current) ? manifest.current : undefined;
  return { versions, refused, current };
}

function verifyRelease(
  dir: string,
  version: string,
  entry: NonNullable<ReleaseManifest['versions']>[string],
  into: Map<string, LoaderFile>,
): string | null {
  if (!PINNED_VERSION.test(version)) return 'not an x.y.z version';
  const file = entry?.file;
  if (typeof file !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]*\.js$/.test(file)) return 'bad file name in manifest';
  if (typeof entry.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(entry.sha256)) return 'bad sha256 in manifest';
  let bytes: Buffer;
  try {
    bytes = readFileSync(path.join(dir, file));
  } catch {
    return `file ${file} is missing`;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== entry.sha256) return `sha256 of ${file} is ${sha256}, the manifest says ${entry.sha256}`;
  if (typeof entry.bytes === 'number' && entry.bytes !== bytes.length)
    return `${file} has ${bytes.length} bytes, the manifest says ${entry.bytes}`;
  into.set(version, encodeFile(bytes, {}, `"${sha256}"`));
  return null;
}

/**
 * The rolling channel: the current build of the loader, re-read whenever the file changes (size or mtime), so a
 * rebuild under `npm start` is served at once with a new ETag. Its brotli and gzip twins are the build's
 * (`widget.js.br`, `widget.js.gz`) when they decode to these bytes, else compressed here. Null while not built.
 */
export function createRollingLoader(filePath: string): () => LoaderFile | null {
  let cached: { stamp: string; file: LoaderFile } | null = null;
  return () => {
    let stamp: string;
    try {
      const stat = statSync(filePath);
      stamp = `${stat.size}:${stat.mtimeMs}`;
    } catch {
      cached = null;
      return null;
    }
    if (cached?.stamp === stamp) return cached.file;
    try {
      cached = { stamp, file: readEncodedFile(filePath) };
      return cached.file;
    } catch {
      return null;
    }
  };
}
