import { createHmac } from 'node:crypto';
import { IntegrationResponseSchema, PortalOperatorResponseSchema } from '@expedition/contracts';
import { WIDGET_URL, useRouterSuite } from './portal-test-harness';

const suite = useRouterSuite();
const { as } = suite;
let { h, a, b, admin } = suite;
beforeAll(() => ({ h, a, b, admin } = suite));

describe('authorization: 401 without a session, 403 for provider admins on operator routes', () => {
  const routes: ['get' | 'post', string][] = [
    ['get', '/operator'],
    ['get', '/operator/keys'],
    ['post', '/operator/keys'],
    ['get', '/operator/secret-keys'],
    ['get', '/operator/origins'],
    ['post', '/operator/origins/test'],
    ['get', '/operator/integration'],
    ['get', '/operator/webhook'],
    ['get', '/operator/webhook-events'],
    ['post', '/operator/webhook-events/test'],
    ['get', '/operator/dashboard'],
    ['get', '/operator/audit'],
  ];
  it.each(routes)('%s %s', async (method, path) => {
    const anon = await as(null)[method](path);
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('unauthorized');
    const adm = await as(admin)[method](path);
    expect(adm.status).toBe(403);
    expect(adm.body.code).toBe('forbidden');
  });

  it.each([
    ['post', '/operator/secret-keys', { mode: 'test' }],
    ['post', '/operator/webhook/secret/reveal', {}],
  ])('a member gets 403 on owner-only %s %s', async (_m, path, body) => {
    const res = await as(a.member).post(path, body);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'forbidden' });
  });
});

describe('GET /operator', () => {
  it('shows the own operator, read-only settings included', async () => {
    const res = await as(a.member).get('/operator');
    expect(res.status).toBe(200);
    const body = PortalOperatorResponseSchema.parse(res.body);
    expect(body.operator).toMatchObject({
      id: a.operator.id,
      name: 'Alpha Expeditions',
      embeddingEnabled: false,
      liveApproved: false,
      commissionRateBps: 1000,
      integrationTier: 1,
    });
  });
});

describe('GET /operator/integration', () => {
  it('fills in the test key before approval, the live key after; tier, CSP and verification snippets', async () => {
    const before = IntegrationResponseSchema.parse((await as(b.member).get('/operator/integration')).body);
    expect(before).toMatchObject({ widgetUrl: WIDGET_URL, publishableKey: b.key.key, mode: 'test', allowedTier: 1 });
    expect(before.snippets.tier1).toContain(`${WIDGET_URL}/quote?pk=${b.key.key}`);
    expect(before.snippets.tier3).toContain(`<script src="${WIDGET_URL}/widget.js"></script>`);
    expect(before.snippets.tier3).toContain(
      `SvcWidget.mount('#svc-insurance', {\n    publishableKey: '${b.key.key}',\n    tier: 3,\n`,
    );
    // Loader 1.1.0: the title names the widget and its fallback link; widget.error tells refused from timed out.
    expect(before.snippets.tier3).toContain("    title: 'Travel insurance quote',\n");
    // The language and the prefill fields, shown commented out: pasting the snippet never prefills an example trip.
    expect(before.snippets.tier3).toContain("    // locale: 'de',\n");
    expect(before.snippets.tier2).toMatch(/\/\/ destination: 'antarctica', startDate: '\d{4}-\d\d-\d\d'/);
    expect(before.snippets.tier2).toContain("SvcWidget.on('widget.error', (event) => {");
    expect(before.snippets.tier3).toMatch(/payment\.succeeded[\s\S]*widget\.error[\s\S]*<\/script>$/);
    expect(before.snippets.tier2).not.toContain('payment.succeeded');
    expect(before.snippets.tier2).toContain("SvcWidget.on('quote.selected'");
    expect(before.snippets.csp).toBe('script-src http://localhost:3003; frame-src http://localhost:3003');
    expect(before.snippets.webhookVerification).toContain('X-SVC-Signature');
    // Names the portal's menu and button as they read.
    expect(before.snippets.webhookVerification).toContain('portal → Webhooks → Endpoint → Reveal signing secret');

    const live = await h.operators.mintPublishableKey(b.operator.id, 'live');
    await h.operators.setEmbeddingEnabled(b.operator.id, true);
    const after = IntegrationResponseSchema.parse((await as(b.member).get('/operator/integration')).body);
    expect(after).toMatchObject({ publishableKey: live.key, mode: 'live' });
    await h.operators.setEmbeddingEnabled(b.operator.id, false);
  });

  it('the verification snippet accepts a body signed with either secret and refuses a tampered one', async () => {
    const { webhookVerification } = IntegrationResponseSchema.parse(
      (await as(b.member).get('/operator/integration')).body,
    ).snippets;
    const verifySource = webhookVerification.slice(
      webhookVerification.indexOf('function verify'),
      webhookVerification.indexOf('const app'),
    );
    const verify = new Function('crypto', 'SECRETS', 'TOLERANCE_SEC', `${verifySource}; return verify;`)(
      require('node:crypto'),
      ['whsec_new', 'whsec_old'],
      300,
    ) as (body: Buffer, header: string) => boolean;
    const body = Buffer.from('{"eventId":"evt_1"}');
    const t = Math.floor(Date.now() / 1000);
    const sig = (s: string, b: Buffer) => createHmac('sha256', s).update(`${t}.`).update(b).digest('hex');
    expect(verify(body, `t=${t},v1=${sig('whsec_old', body)}`)).toBe(true);
    expect(verify(body, `t=${t},v1=${sig('whsec_other', body)},v1=${sig('whsec_new', body)}`)).toBe(true);
    expect(verify(Buffer.from('{"eventId":"evt_2"}'), `t=${t},v1=${sig('whsec_new', body)}`)).toBe(false);
    expect(verify(body, `t=${t - 3600},v1=${sig('whsec_new', body)}`)).toBe(false);
  });
});
