import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { noteSkippedSuite } from '@expedition/platform/testing';
import { launch, type Launched } from '../launcher-harness';
import { until } from '../portal-journey.helpers';
import { PortalCaller, providerAdmin, rawExchange, strongPassword, unique, stopLaunched } from './hostile.helpers';

/**
 * Issue 20, items 9, 14 and 15, replayed against the running platform (`npm start`'s launcher, PGlite) started as
 * production runs it for outbound requests: WEBHOOK_ALLOW_PRIVATE_NETWORKS=false. The demo operator's site is then
 * given a public-looking DEMO_URL (its localhost receiver would itself be refused as a webhook target, and the launcher
 * would not start).
 */
const DEMO_URL = 'https://demo.hostile.example';
let platform: Launched;
let admin: PortalCaller;

beforeAll(async () => {
  platform = await launch({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', DEMO_URL } });
  admin = await providerAdmin(platform.urls.portal, platform.providerAdmin);
}, 120_000);
afterAll(async () => {
  if (platform) await stopLaunched(platform);
});

async function webhookUrlOf(operatorId: string): Promise<string | null> {
  const res = await admin.get<{ operator: { webhookUrl: string | null } }>(`/admin/operators/${operatorId}`);
  expect(res.status).toBe(200);
  return res.body.operator.webhookUrl;
}

/**
 * A name of this machine that resolves to a loopback or private address without being `localhost` (which is refused
 * by name before any look-up): an /etc/hosts alias, else the host name. Null when there is none (the delivery-time
 * test is then skipped, and says so).
 */
function nonPublicAlias(): string | null {
  let hosts = '';
  try {
    hosts = readFileSync('/etc/hosts', 'utf8');
  } catch {
    // no hosts file: only the host name is tried
  }
  const aliases = hosts
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().split(/\s+/))
    .filter(([ip]) => ip !== undefined && /^(127\.|10\.|192\.168\.|::1$)/.test(ip))
    .flatMap(([, ...names]) => names)
    .filter((name) => name !== 'localhost' && !name.endsWith('.localhost') && /^[a-z0-9.-]+$/i.test(name));
  return aliases[0] ?? (hostname() || null);
}
const ALIAS = nonPublicAlias();
if (!ALIAS)
  noteSkippedSuite(
    'hostile item 9 (delivery time): no host name of this machine resolves to a loopback or private address',
  );
const itWithAlias = ALIAS ? it : it.skip;

describe('item 9: webhook URLs cannot reach our own networks (WEBHOOK_ALLOW_PRIVATE_NETWORKS=false)', () => {
  it.each([
    'https://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'https://[fd00:ec2::254]/latest/meta-data/',
    'https://10.0.0.1/hook',
    'https://192.168.1.1/hook',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://0.0.0.0/hook',
    'http://2130706433/hook',
    'https://2130706433/hook',
    'http://0x7f000001/hook',
    'https://0x7f000001/hook',
    'http://127.1/hook',
    'https://127.1/hook',
    'http://localhost:<quote API port>/metrics',
  ])('the provider setting %s is refused (400) and the URL is unchanged', async (listed) => {
    // The quote API's port is the one the OS picked for this run.
    const url = listed.replace('<quote API port>', new URL(platform.urls.quote).port);
    const operatorId = platform.demo.operatorId;
    const before = await webhookUrlOf(operatorId);

    const res = await admin.send('PUT', `/admin/operators/${operatorId}/webhook`, { url });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_request', requestId: expect.any(String) });
    expect(await webhookUrlOf(operatorId)).toBe(before);
  });

  itWithAlias(
    'a host name resolving to a non-public address passes the provider’s form but is refused at delivery time; the operator reads a generic failure',
    async () => {
      const resolved = await lookup(ALIAS!, { all: true });
      expect(resolved.length).toBeGreaterThan(0);
      // Would a connection reach this machine? Count every connection a socket makes to the port.
      const connections: Socket[] = [];
      const silent: Server = createServer((socket) => {
        connections.push(socket);
        socket.destroy();
      });
      await new Promise<void>((resolve, reject) => {
        silent.once('error', reject);
        silent.listen(0, resolved.some((a) => a.family === 6) ? '::' : '0.0.0.0', resolve);
      });
      const port = (silent.address() as { port: number }).port;
      try {
        const operatorId = platform.demo.operatorId;
        const url = `https://${ALIAS}:${port}/hook`;
        expect((await admin.send('PUT', `/admin/operators/${operatorId}/webhook`, { url })).status).toBe(200);
        expect((await admin.post(`/admin/operators/${operatorId}/webhook/secret`, { overlapHours: 0 })).status).toBe(
          201,
        );

        const owner = new PortalCaller(platform.urls.portal);
        expect((await owner.logIn(platform.demo.portalEmail, platform.demo.portalPassword)).status).toBe(200);
        const sent = await owner.post<{ event: { id: string; eventId: string } }>('/operator/webhook-events/test');
        expect(sent.status).toBe(201);

        type Detail = { event: { status: string }; attempts: { error: string | null; statusCode: number | null }[] };
        const seen = await until(
          'the test event to fail its 3 attempts',
          async () => {
            const res = await owner.get<Detail>(`/operator/webhook-events/${sent.body.event.id}`);
            return res.body.event.status === 'failed' ? res.body : false;
          },
          30_000,
        );
        expect(seen.attempts).toHaveLength(3);
        for (const attempt of seen.attempts)
          expect(attempt).toMatchObject({ statusCode: null, error: 'could not connect to the webhook URL' });
        const provider = await admin.get<Detail>(
          `/admin/operators/${operatorId}/webhook-events/${sent.body.event.eventId}`,
        );
        for (const attempt of provider.body.attempts)
          expect(attempt.error).toMatch(/^address refused: .*(loopback|private|unique-local)/);
        expect(connections).toHaveLength(0);
      } finally {
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    },
  );
});

describe('item 14: /mcp answers JSON-RPC errors', () => {
  const mcp = (body: string) =>
    fetch(`${platform.urls.quote}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body,
    });

  it.each([
    { what: 'malformed JSON', body: '{"jsonrpc":"2.0","id":1,"method":', code: -32700 },
    { what: 'an empty object', body: '{}', code: -32600 },
  ])('$what → 400, JSON-RPC error $code with id null and the request id', async ({ body, code }) => {
    const res = await mcp(body);

    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code, message: expect.any(String), data: { requestId: res.headers.get('x-request-id') } },
    });
  });
});

describe('item 15: refusals before any route still answer in our shape with a request id', () => {
  const utf16 = (json: unknown) => Buffer.from(JSON.stringify(json), 'utf16le');

  it('a quote body declared charset=utf-16 → 415 { error, code, requestId } with X-Request-Id', async () => {
    const res = await fetch(`${platform.urls.quote}/api/v1/quotes`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-16' },
      body: utf16({
        destination: 'Antarctica',
        startDate: '2031-01-10',
        durationDays: 14,
        tripCost: 24000,
        travelers: 1,
        travelerAges: [45],
        residence: 'US',
        state: 'CA',
      }),
    });

    expect(res.status).toBe(415);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toEqual(expect.any(String));
    expect(await res.json()).toEqual({ error: expect.stringMatching(/UTF-8/), code: 'invalid_request', requestId });
  });

  it('a portal sign-up declared charset=utf-16 → 415 in the portal’s shape, and no account is created', async () => {
    const email = `utf16-${unique()}@hostile.example`;
    const password = strongPassword();
    const res = await fetch(`${platform.urls.portal}/api/portal/v1/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-16', Origin: platform.urls.portal },
      body: utf16({ email, password, operatorName: `UTF-16 ${unique()}` }),
    });

    expect(res.status).toBe(415);
    const requestId = res.headers.get('x-request-id');
    expect(await res.json()).toMatchObject({ error: expect.stringMatching(/UTF-8/), requestId });
    expect(requestId).toEqual(expect.any(String));
    expect((await new PortalCaller(platform.urls.portal).logIn(email, password)).status).toBe(401);
    expect(
      (await admin.get<{ operators: unknown[] }>(`/admin/operators?q=${encodeURIComponent(email)}`)).body.operators,
    ).toEqual([]);
  });

  it.each(['quote', 'embed', 'widget', 'portal', 'dispatcher'] as const)(
    '17 KB of request headers to the %s app → 431 with our JSON body and X-Request-Id',
    async (app) => {
      const answer = await rawExchange(
        platform.urls[app].replace('localhost', '127.0.0.1'),
        `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'x'.repeat(17 * 1024)}\r\n\r\n`,
      );

      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 431 /);
      const requestId = /\r\nX-Request-Id: ([^\r\n]+)/i.exec(head)?.[1];
      expect(requestId).toEqual(expect.any(String));
      expect(JSON.parse(body)).toEqual({
        error: expect.any(String),
        code: 'invalid_request',
        requestId,
        type: 'invalid_request',
        message: expect.any(String),
      });
    },
  );
});
