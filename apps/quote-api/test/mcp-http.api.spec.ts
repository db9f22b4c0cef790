import { createRateLimiter } from '@expedition/platform';
import { createHarness } from './harness';
import { listenInRange, server, useMcpHarness } from './mcp-harness';

/** MCP at /mcp: the HTTP transport's edges (methods, JSON-RPC errors, charset, the shared rate limit). */
useMcpHarness();

describe('MCP at /mcp: HTTP', () => {
  it('answers GET and DELETE with 405 and Allow: POST (stateless endpoint)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${server.url}/mcp`, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
  });

  const post = (body: string, contentType = 'application/json') =>
    fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': contentType, accept: 'application/json, text/event-stream' },
      body,
    });

  /** A JSON-RPC 2.0 error object, never the REST error body; its request id matches X-Request-Id. */
  async function expectJsonRpcError(res: Response, status: number, code: number) {
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code, message: expect.any(String), data: { requestId: res.headers.get('x-request-id') } },
    });
    return body as { error: { message: string } };
  }

  it('answers malformed JSON with a JSON-RPC parse error: 400, code -32700, id null', async () => {
    await expectJsonRpcError(await post('{"jsonrpc":"2.0","id":1,"method":'), 400, -32700);
    await expectJsonRpcError(await post('not json at all'), 400, -32700);
  });

  it.each([
    ['an empty object', '{}'],
    ['a bare string', '"ping"'],
    ['an empty batch', '[]'],
    ['a wrong jsonrpc version', '{"jsonrpc":"1.0","id":1,"method":"ping"}'],
    ['a method that is not a string', '{"jsonrpc":"2.0","id":1,"method":42}'],
  ])('answers %s with a JSON-RPC invalid request: 400, code -32600, id null', async (_what, body) => {
    await expectJsonRpcError(await post(body), 400, -32600);
  });

  it('answers a string PostgreSQL cannot store with -32600 naming the field', async () => {
    const body = await expectJsonRpcError(
      await post('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"a\\u0000b"}}'),
      400,
      -32600,
    );
    expect(body.error.message).toMatch(/params\.x/);
  });

  it('answers a charset other than UTF-8 with 415 and a JSON-RPC error', async () => {
    await expectJsonRpcError(
      await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', 'application/json; charset=utf-16'),
      415,
      -32000,
    );
  });

  it('shares the per-client rate limit of /api/v1 (429 with Retry-After)', async () => {
    const limited = await createHarness({
      rateLimiter: createRateLimiter({ points: 2, durationSec: 60 }),
      rateLimitPerMinute: 2,
    });
    const running = await listenInRange(limited.app);
    try {
      const ping = () =>
        fetch(`${running.url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
      const first = await ping();
      expect(first.status).toBe(200);
      expect(first.headers.get('ratelimit-limit')).toBe('2');
      expect(await first.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      expect((await fetch(`${running.url}/api/v1/destinations`)).status).toBe(200);
      const third = await ping();
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await running.close(0);
      await limited.close();
    }
  });
});
