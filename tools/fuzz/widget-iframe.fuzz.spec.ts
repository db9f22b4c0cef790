import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';
import { prepareDatabase } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';
import {
  createKeyResolver,
  createSecretBox,
  ensureDemoOperator,
  resolveWebhookSecretKeys,
} from '@expedition/operators';
import { systemClock } from '@expedition/platform';
import { createApp, loadPinnedReleases } from '@expedition/app-widget-iframe';
import type { RouteSpec } from './src/route-spec';
import { FUZZ_PORTS, WRITTEN_TABLES, fuzzLogger, fuzzSuite } from './src/suite';

const SITE = 'https://tours.fuzz.example';

/** A throwaway build: the rolling loader, a frame bundle (frame + hosted entries) and an empty release manifest. */
function buildDirs() {
  const root = mkdtempSync(path.join(tmpdir(), 'fuzz-widget-'));
  const loaderDir = path.join(root, 'widget-loader');
  const frameDir = path.join(root, 'widget-frame');
  const releasesDir = path.join(root, 'releases');
  for (const dir of [loaderDir, frameDir, releasesDir]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(loaderDir, 'widget.js'), '(()=>{window.SvcWidget={version:"9.9.9"}})();\n');
  writeFileSync(path.join(frameDir, 'frame-abc123def0.js'), 'export {};\n');
  writeFileSync(path.join(frameDir, 'frame-9f8e7d6c5b.css'), ':root{}\n');
  writeFileSync(
    path.join(frameDir, 'manifest.json'),
    JSON.stringify({
      entries: { frame: 'frame-abc123def0.js', hosted: 'frame-abc123def0.js' },
      css: { frame: 'frame-9f8e7d6c5b.css', hosted: 'frame-9f8e7d6c5b.css' },
      files: { 'frame-abc123def0.js': { bytes: 11 }, 'frame-9f8e7d6c5b.css': { bytes: 8 } },
    }),
  );
  writeFileSync(path.join(releasesDir, 'manifest.json'), JSON.stringify({ versions: {} }));
  return { root, loaderDir, frameDir, releasesDir };
}

fuzzSuite('widget-iframe', async () => {
  const db = await createTestDatabase();
  await prepareDatabase(db, { catalog: catalogSnapshot() });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fuzz-widget-data-'));
  const secretBox = createSecretBox(resolveWebhookSecretKeys({ configured: undefined, embedded: true, dataDir }));
  const demo = await ensureDemoOperator({
    prisma: db.prisma,
    dataDir,
    demoOrigin: SITE,
    webhookUrl: 'http://127.0.0.1:9/hooks',
    secretBox,
  });
  const dirs = buildDirs();
  const keys = createKeyResolver(db.prisma, { ttlMs: 60_000, clock: systemClock });
  const app = createApp({
    ready: () => db.ping(),
    logger: fuzzLogger(),
    resolveKey: keys.resolve,
    embedUrl: 'http://127.0.0.1:16651',
    embedOrigin: 'http://127.0.0.1:16651',
    testDashboardOrigins: ['http://127.0.0.1:16654'],
    payments: { provider: 'simulated', stripePublishableKeys: {} },
    loaderDir: dirs.loaderDir,
    frameDir: dirs.frameDir,
    releases: loadPinnedReleases(dirs.releasesDir),
  });
  const pk = fc.oneof(
    fc.constant(demo.publishableKey),
    fc.constant(`pk_op_test_${'0'.repeat(48)}`),
    fc.string({ maxLength: 60 }),
  );
  const common = {
    allowed: [200, 304, 400, 404],
    errorSchema: z.object({ error: z.string() }).passthrough(),
    writes: [...WRITTEN_TABLES],
    oddHeaders: ['if-none-match', 'referer'],
  };
  return {
    db,
    app,
    port: FUZZ_PORTS.widget,
    close: () => db.close(),
    routes: (): RouteSpec[] => [
      { name: 'GET /widget.js', method: 'GET', path: '/widget.js', ...common },
      {
        name: 'GET /widget/{file}',
        method: 'GET',
        path: '/widget/{file}',
        params: { file: fc.constantFrom('1.0.0.js', '9.9.9.js', 'widget.js', '..%2Fwidget.js') },
        ...common,
      },
      {
        name: 'GET /frame',
        method: 'GET',
        path: '/frame',
        query: fc.record(
          {
            pk,
            instance: fc.string({ maxLength: 40 }),
            parent: fc.constantFrom(SITE, 'https://evil.example', 'null', 'javascript:alert(1)'),
          },
          { requiredKeys: [] },
        ),
        ...common,
      },
      {
        name: 'GET /quote',
        method: 'GET',
        path: '/quote',
        query: fc.record(
          {
            pk,
            destination: fc.string({ maxLength: 30 }),
            travelers: fc.string({ maxLength: 5 }),
            tripCost: fc.string({ maxLength: 12 }),
            startDate: fc.string({ maxLength: 12 }),
            email: fc.string({ maxLength: 30 }),
          },
          { requiredKeys: [] },
        ),
        ...common,
      },
      {
        name: 'GET /assets/{name}',
        method: 'GET',
        path: '/assets/{name}',
        params: {
          name: fc.constantFrom('frame-abc123def0.js', 'frame-9f8e7d6c5b.css', 'manifest.json', '..%2F..%2Fsecret.txt'),
        },
        ...common,
      },
    ],
  };
});
