import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { embedPrelude, isUnderEmbedPrefix } from './embed-prelude';

function appWith(level: string, lines: Record<string, unknown>[] = []) {
  const logger = pino({ level }, { write: (l: string) => lines.push(JSON.parse(l)) });
  const app = express();
  app.use(embedPrelude(logger));
  // What a handler sees: its `finish` listeners (Node's own plus the access log's, if any) and req.log.
  app.get(['/api/embed/options', '/healthz', '/API/EMBED/x', '/api/embedded'], (req, res) => {
    req.log?.info({ extra: 1 }, 'inside');
    res.json({ finishListeners: res.listenerCount('finish') });
  });
  app.get('/boom', (_req, res) => res.status(503).json({}));
  return app;
}

describe('embedPrelude', () => {
  it('sets X-Request-Id (reusing a safe one) and marks only /api/embed responses no-store', async () => {
    const app = appWith('info');
    const embed = await request(app).get('/api/embed/options?quoteId=x').set('X-Request-Id', 'r-1');
    expect(embed.headers['x-request-id']).toBe('r-1');
    expect(embed.headers['cache-control']).toBe('no-store');
    expect((await request(app).get('/API/EMBED/x')).headers['cache-control']).toBe('no-store');
    const health = await request(app).get('/healthz').set('X-Request-Id', 'bad id with spaces');
    expect(health.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(health.headers['cache-control']).toBeUndefined();
    expect((await request(app).get('/api/embedded')).headers['cache-control']).toBeUndefined();
  });

  it('writes the access line with the request id, the path without its query, status and duration', async () => {
    const lines: Record<string, unknown>[] = [];
    await request(appWith('info', lines)).get('/api/embed/options?pk=pk_op_test_secretish').set('X-Request-Id', 'r-2');
    expect(lines.find((l) => l['msg'] === 'inside')).toMatchObject({ reqId: 'r-2', extra: 1 });
    expect(lines.find((l) => l['msg'] === 'request completed')).toMatchObject({
      reqId: 'r-2',
      method: 'GET',
      path: '/api/embed/options',
      status: 200,
      level: 30,
    });
    expect(JSON.stringify(lines)).not.toContain('secretish');
  });

  it('costs a request no finish listener when the logger writes nothing at all, and only 5xx lines at warn', async () => {
    const silentLines: Record<string, unknown>[] = [];
    const silent = await request(appWith('silent', silentLines)).get('/api/embed/options');
    const atInfo = await request(appWith('info')).get('/api/embed/options');
    expect(atInfo.body.finishListeners).toBe(silent.body.finishListeners + 1);
    expect(silentLines).toEqual([]);

    const warnLines: Record<string, unknown>[] = [];
    const warn = appWith('warn', warnLines);
    await request(warn).get('/api/embed/options');
    await request(warn).get('/boom');
    expect(warnLines.map((l) => [l['path'], l['level']])).toEqual([['/boom', 50]]);
  });
});

describe('isUnderEmbedPrefix', () => {
  it.each([
    ['/api/embed', true],
    ['/api/embed/', true],
    ['/api/embed/options', true],
    ['/API/Embed/quote', true],
    ['/api/embedded', false],
    ['/api/embe', false],
    ['/api/%65mbed/options', false],
    ['/healthz', false],
  ])('%s → %s (as Express matches app.use("/api/embed"))', (path, under) => {
    expect(isUnderEmbedPrefix(path)).toBe(under);
  });
});
