import pino from 'pino';
import { createFailureLog } from '@expedition/http-kit';
import { createToolRunner } from './mcp-tools';

describe('createToolRunner', () => {
  it('logs a database outage once across tool calls, and a real fault every time (docs/runbooks.md)', async () => {
    const lines: Record<string, unknown>[] = [];
    const logFailure = createFailureLog(pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) }));
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    // One runner per MCP request, one failure log per app: the throttle spans the requests.
    for (const requestId of ['r1', 'r2', 'r3']) {
      const result = await createToolRunner(logFailure, requestId)('get_policy', () => Promise.reject(refused));
      expect(result).toMatchObject({ isError: true });
    }
    await createToolRunner(logFailure, 'r4')('get_policy', () => Promise.reject(new Error('a bug')));
    expect(lines.map((l) => [l['msg'], l['requestId'], l['tool'], l['dependencyUnavailable'] ?? false])).toEqual([
      ['mcp tool failed', 'r1', 'get_policy', true],
      ['mcp tool failed', 'r4', 'get_policy', false],
    ]);
  });
});
