import request from 'supertest';
import { ACP_API_VERSION } from '@expedition/contracts';
import { createMetrics, type Metrics } from '@expedition/observability';
import { seriesValue } from '@expedition/observability/testing';
import { hashToken, randomToken } from '@expedition/platform';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/**
 * quotes_created_total counts every quote quote-api creates, by the channel it came through: the HTTP route (api),
 * the MCP create_quote tool (mcp) and ACP checkout sessions (acp). Refused requests create nothing and count nothing.
 */
let h: Harness;
let metrics: Metrics;
let agentKey: string;

beforeAll(async () => {
  metrics = createMetrics({ service: 'quote-api', defaultMetrics: false });
  h = await createHarness({ observability: { metrics } });
  agentKey = randomToken('acpk_test', 32);
  await h.db.prisma.agentKey.create({
    data: { name: 'Metrics platform', mode: 'test', prefix: agentKey.slice(0, 16), hash: hashToken(agentKey) },
  });
});
afterAll(() => h.close());

const SOURCES = ['api', 'embed', 'mcp', 'acp'] as const;
/** quotes_created_total by source, and the quotes stored. */
async function counts() {
  const text = await metrics.registry.metrics();
  const bySource = Object.fromEntries(
    SOURCES.map((source) => [source, seriesValue(text, 'quotes_created_total', { source }) ?? 0]),
  );
  return { ...bySource, stored: await h.db.prisma.quote.count() };
}
/** What changed in counts() while `act` ran. */
async function countedDuring(act: () => Promise<void>) {
  const before = await counts();
  await act();
  const after = await counts();
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k as keyof typeof before]]));
}

let rpcId = 0;
const callMcpTool = (name: string, args: unknown) =>
  request(h.app)
    .post('/mcp')
    .set('Accept', 'application/json, text/event-stream')
    .send({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } });

let idempotencySeq = 0;
const postAcp = (path: string, body: unknown) =>
  request(h.app)
    .post(`/acp/v1${path}`)
    .set({
      Authorization: `Bearer ${agentKey}`,
      'API-Version': ACP_API_VERSION,
      'Idempotency-Key': `metrics-${++idempotencySeq}`,
    })
    .send(body as object);
const acpSession = (trip: unknown) => ({
  line_items: [{ id: 'any-plan' }],
  currency: 'usd',
  capabilities: {},
  metadata: { trip },
  buyer: { email: 'traveler@example.com' },
});

describe('quotes_created_total', () => {
  it('counts a quote created by POST /api/v1/quotes as source="api", and not a refused one', async () => {
    const delta = await countedDuring(async () => {
      expect((await request(h.app).post('/api/v1/quotes').send(antarcticaQuote)).status).toBe(200);
      expect(
        (
          await request(h.app)
            .post('/api/v1/quotes')
            .send({ ...antarcticaQuote, travelers: 0 })
        ).status,
      ).toBe(400);
    });
    expect(delta).toEqual({ api: 1, embed: 0, mcp: 0, acp: 0, stored: 1 });
  });

  it('counts a quote created by the MCP create_quote tool as source="mcp", and not a refused one', async () => {
    const delta = await countedDuring(async () => {
      const ok = await callMcpTool('create_quote', antarcticaQuote);
      expect([ok.status, ok.body.result?.isError ?? false]).toEqual([200, false]);
      const refused = await callMcpTool('create_quote', { ...antarcticaQuote, destination: 'Atlantis' });
      expect(refused.body.result?.isError).toBe(true);
    });
    expect(delta).toEqual({ api: 0, embed: 0, mcp: 1, acp: 0, stored: 1 });
  });

  it('counts each quote an ACP checkout session makes as source="acp": on creation and on a trip change', async () => {
    const delta = await countedDuring(async () => {
      const session = await postAcp('/checkout_sessions', acpSession(antarcticaQuote));
      expect(session.status).toBe(201);
      const requoted = await postAcp(`/checkout_sessions/${session.body.id}`, {
        metadata: { trip: { ...antarcticaQuote, durationDays: 21 } },
      });
      expect(requoted.status).toBe(200);
      // A trip the quote service refuses makes a session that is not ready, and no quote.
      const refused = await postAcp('/checkout_sessions', acpSession({ ...antarcticaQuote, destination: 'Atlantis' }));
      expect([refused.status, refused.body.status]).toEqual([201, 'not_ready_for_payment']);
    });
    expect(delta).toEqual({ api: 0, embed: 0, mcp: 0, acp: 2, stored: 2 });
  });
});
