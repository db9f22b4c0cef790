import express from 'express';
import fc from 'fast-check';
import { z } from 'zod';
import type { Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { listen, type RunningServer } from '@expedition/http-kit';
import { fuzzRoute } from './src/engine';
import type { RouteSpec } from './src/route-spec';
import { installWriteLog } from './src/write-log';

/**
 * The engine must catch what it is for: a 5xx, an undocumented status, a stack trace in a body, an error body of the
 * wrong shape, and a refused request that wrote a row. A deliberately broken app shows each is reported.
 */
let db: Database;
let server: RunningServer;

beforeAll(async () => {
  db = await createTestDatabase();
  await installWriteLog(db, ['audit_entries']);
  const app = express();
  app.use(express.json());
  app.post('/broken', async (req, res) => {
    const body = req.body as { mode?: unknown } | undefined;
    if (body?.mode === 'crash') return res.status(500).json({ error: 'boom', code: 'internal_error' });
    if (body?.mode === 'leak')
      return res.status(400).send('TypeError: x is undefined\n    at handler (/work/main/apps/x/src/app.ts:10:5)');
    if (body?.mode === 'teapot') return res.status(418).json({ error: 'teapot', code: 'invalid_request' });
    if (body?.mode === 'shape') return res.status(400).json({ message: 'no error field' });
    if (body?.mode === 'write') {
      await db.withConnection((executor) =>
        executor.exec(`INSERT INTO audit_entries (id, action) VALUES (gen_random_uuid()::text, 'fuzz.self_test')`),
      );
      return res.status(400).json({ error: 'refused after writing', code: 'invalid_request' });
    }
    res.json({ ok: true });
  });
  // Malformed JSON is a documented 400 with the error shape (as in our apps).
  app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(400).json({ error: 'bad json', code: 'invalid_json' });
  });
  server = await listen(app, { port: 16690, host: '127.0.0.1' });
});
afterAll(async () => {
  await server?.close(100);
  await db?.close();
});

it('reports 5xx, undocumented statuses, stack traces, wrong error bodies and writes of refused requests', async () => {
  const spec: RouteSpec = {
    name: 'POST /broken',
    method: 'POST',
    path: '/broken',
    body: fc.record({ mode: fc.constantFrom('crash', 'leak', 'teapot', 'shape', 'write', 'fine') }),
    allowed: [200, 400, 413, 415],
    errorSchema: z.object({ error: z.string(), code: z.string() }),
    writes: ['audit_entries'],
  };
  const stats = await fuzzRoute({ baseUrl: server.url.replace('0.0.0.0', '127.0.0.1'), db }, spec, 300);
  const problems = new Set(stats.violations.map((v) => v.problem.split(':')[0]!.replace(/ \d+$/, '')));
  expect(stats.inputs).toBeGreaterThan(250);
  expect([...problems]).toEqual(
    expect.arrayContaining([
      '5xx answer',
      'undocumented status',
      'leak',
      'error body does not match the error schema',
      'refused (400) but wrote',
    ]),
  );
  // Every violation names its input, so a failure can be replayed by hand.
  for (const v of stats.violations) expect(v.input).toContain('POST /broken');
});
