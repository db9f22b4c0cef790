import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { Express } from 'express';
import { mintPublishableKey, type CachedKeyResolver } from '@expedition/auth-publishable-key';
import type { Mode } from '@expedition/contracts';
import type { WidgetBootData } from '@expedition/contracts/widget-boot';
import type { Database, PrismaClient } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { createKeyResolver } from '@expedition/operators';
import { createTestClock, type TestClock } from '@expedition/platform/testing';
import { createApp, type WidgetIframeDeps } from '../src/app';
import { loadPinnedReleases } from '../src/loader-channels';

export const EMBED_URL = 'http://embed.test:3002';
export const EMBED_ORIGIN = 'http://embed.test:3002';
export const PORTAL_ORIGIN = 'http://portal.test:3004';
export const SITE_ORIGIN = 'https://tours.example';
export const WWW_SITE_ORIGIN = 'https://www.tours.example';
export const OTHER_SITE_ORIGIN = 'https://elsewhere.example';

export const ROLLING_SOURCE =
  '/*! svc widget test build */(()=>{window.SvcWidget=window.SvcWidget||{version:"9.9.9"}})();\n';
export const PINNED_SOURCE =
  '/*! svc widget 1.0.0 (test fixture) */(()=>{window.SvcWidget=window.SvcWidget||{version:"1.0.0"}})();\n';

/** A throwaway copy of the three build directories: loader (widget.js), frame (manifest + hashed assets), releases. */
export interface BuildDirs {
  root: string;
  loaderDir: string;
  frameDir: string;
  releasesDir: string;
  writeRolling(source: string): void;
  /** Publishes a pinned version with a correct manifest entry; `tamper` then changes the bytes behind its back. */
  publish(version: string, source: string): void;
  tamper(version: string, source: string): void;
  remove(): void;
}

export const FRAME_SCRIPT = 'frame-abc123def0.js';
export const FRAME_CHUNK = 'checkout-0123456789.js';
/** The German texts' chunk (libs/i18n makes one per language). */
export const FRAME_TEXTS_DE = 'widget.de-0a1b2c3d4e.js';
/** A chunk every language's texts import (libs/i18n's plural rules, in the real build). */
export const FRAME_TEXTS_SHARED = 'cardinals-5a6b7c8d9e.js';
export const FRAME_CSS = 'frame-9f8e7d6c5b.css';

export function createBuildDirs(): BuildDirs {
  const root = mkdtempSync(path.join(os.tmpdir(), 'widget-iframe-test-'));
  const loaderDir = path.join(root, 'widget-loader');
  const frameDir = path.join(root, 'widget-frame');
  const releasesDir = path.join(root, 'releases');
  for (const dir of [loaderDir, frameDir, releasesDir]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(loaderDir, 'widget.js'), ROLLING_SOURCE);
  writeFileSync(path.join(frameDir, FRAME_SCRIPT), 'import("./checkout-0123456789.js");\n');
  writeFileSync(path.join(frameDir, FRAME_CHUNK), 'export const checkout = 1;\n');
  writeFileSync(
    path.join(frameDir, FRAME_TEXTS_DE),
    'import { one } from "./cardinals-5a6b7c8d9e.js";\nexport default { one };\n',
  );
  writeFileSync(path.join(frameDir, FRAME_TEXTS_SHARED), 'export const one = 1;\n');
  writeFileSync(path.join(frameDir, FRAME_CSS), ':root{--svc-accent:#0a5}\n');
  writeFileSync(path.join(root, 'secret.txt'), 'not an asset');
  writeFileSync(
    path.join(frameDir, 'manifest.json'),
    JSON.stringify({
      entries: { frame: FRAME_SCRIPT },
      css: { frame: FRAME_CSS },
      files: {
        [FRAME_SCRIPT]: { bytes: 36 },
        [FRAME_CHUNK]: { bytes: 27 },
        [FRAME_TEXTS_DE]: { bytes: 74, imports: [FRAME_TEXTS_SHARED] },
        [FRAME_TEXTS_SHARED]: { bytes: 22 },
        [FRAME_CSS]: { bytes: 24 },
      },
    }),
  );
  const manifest: { current?: string; versions: Record<string, unknown> } = { versions: {} };
  const writeManifest = () => writeFileSync(path.join(releasesDir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  writeManifest();
  return {
    root,
    loaderDir,
    frameDir,
    releasesDir,
    writeRolling: (source) => writeFileSync(path.join(loaderDir, 'widget.js'), source),
    publish(version, source) {
      const file = `widget-${version}.js`;
      writeFileSync(path.join(releasesDir, file), source);
      const bytes = Buffer.from(source);
      manifest.versions[version] = {
        file,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes: bytes.length,
        publishedAt: '2026-11-23T00:00:00.000Z',
      };
      manifest.current = version;
      writeManifest();
    },
    tamper: (version, source) => writeFileSync(path.join(releasesDir, `widget-${version}.js`), source),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface Harness {
  app: Express;
  db: Database;
  prisma: PrismaClient;
  clock: TestClock;
  keys: CachedKeyResolver;
  dirs: BuildDirs;
  /** Another app over the same database and dirs (e.g. re-reading the releases, other payment settings). */
  rebuild(overrides?: Partial<WidgetIframeDeps>): Express;
  close(): Promise<void>;
}

export async function createHarness(
  options: { dirs?: BuildDirs; deps?: Partial<WidgetIframeDeps> } = {},
): Promise<Harness> {
  const db = await createTestDatabase();
  const clock = createTestClock();
  const keys = createKeyResolver(db.prisma, { ttlMs: 5_000, clock });
  const dirs = options.dirs ?? createBuildDirs();
  const build = (overrides: Partial<WidgetIframeDeps> = {}) =>
    createApp({
      ready: () => db.ping(),
      logger: pino({ level: 'silent' }),
      resolveKey: keys.resolve,
      embedUrl: EMBED_URL,
      embedOrigin: EMBED_ORIGIN,
      testDashboardOrigins: [PORTAL_ORIGIN],
      payments: { provider: 'simulated', stripePublishableKeys: {} },
      loaderDir: dirs.loaderDir,
      frameDir: dirs.frameDir,
      releases: loadPinnedReleases(dirs.releasesDir),
      ...options.deps,
      ...overrides,
    });
  return {
    app: build(),
    db,
    prisma: db.prisma,
    clock,
    keys,
    dirs,
    rebuild: build,
    close: async () => {
      dirs.remove();
      await db.close();
    },
  };
}

// ---- rows --------------------------------------------------------------------------------------------------------

export interface SeedOperator {
  status?: 'pending' | 'active' | 'suspended';
  embeddingEnabled?: boolean;
  origins?: string[];
  name?: string;
  integrationTier?: number;
}

export async function seedOperator(prisma: PrismaClient, seed: SeedOperator = {}): Promise<string> {
  const operator = await prisma.operator.create({
    data: {
      name: seed.name ?? 'Polar Voyages',
      status: seed.status ?? 'active',
      embeddingEnabled: seed.embeddingEnabled ?? true,
      integrationTier: seed.integrationTier ?? 3,
      allowedOrigins: { create: (seed.origins ?? [SITE_ORIGIN, WWW_SITE_ORIGIN]).map((origin) => ({ origin })) },
    },
  });
  return operator.id;
}

export async function seedKey(
  prisma: PrismaClient,
  operatorId: string,
  mode: Mode = 'test',
  extra: { revokedAt?: Date; expiresAt?: Date } = {},
): Promise<string> {
  const key = mintPublishableKey(mode);
  await prisma.publishableKey.create({ data: { operatorId, key, mode, ...extra } });
  return key;
}

// ---- documents -----------------------------------------------------------------------------------------------------

/** Every `<script …>` start tag of the document, with its attributes. */
export function scriptTags(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
}

/** The boot data block, parsed the way the frame reads it (JSON.parse of the element's text). */
export function bootOf(html: string): WidgetBootData {
  const match = /<script type="application\/json" id="svc-boot">([\s\S]*?)<\/script>/.exec(html);
  if (!match) throw new Error('no boot data block');
  return JSON.parse(match[1]!) as WidgetBootData;
}

/** CSP directives as a map: `frame-ancestors` → ['https://a', 'https://b']. */
export function cspOf(header: string | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}
