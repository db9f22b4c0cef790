import { randomUUID } from 'node:crypto';
import express from 'express';
import { CERTIFICATE, KEYS, OPTIONS, type RecordedRequest, type Scenario, type WorldUrls } from './world-config';

/**
 * A FAKE embed API with realistic bodies and the gate's answers (401/403 bare without CORS, 429 with Retry-After and
 * CORS, 400 `{error}` with CORS), recording every request; `scenario` says what it does next.
 */
export function createFakeEmbedApi(urls: WorldUrls, requests: RecordedRequest[], scenario: Scenario): express.Express {
  const embed = express();
  const quotes = new Map<string, { email: string; polls: number; quoteNumber: string }>();
  const payments = new Map<string, { quoteId: string; planId: string; amountCents: number; status: string }>();
  const firstParty = urls.WIDGET;
  // The gate's 403 after the route looked the quote up: bare, without CORS headers (no existence oracle).
  const bareForbidden = (res: express.Response) => {
    res.removeHeader('Access-Control-Allow-Origin');
    res.status(403).type('text').send('Forbidden');
  };
  embed.use((req, res, next) => {
    const origin = req.get('Origin');
    res.set('Vary', 'Origin').set('Cache-Control', 'no-store');
    if (req.method === 'OPTIONS') {
      if (!origin) return void res.status(403).type('text').send('Forbidden');
      res.set({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Content-Type, X-SVC-Publishable-Key',
        'Access-Control-Max-Age': '86400',
      });
      return void res.status(204).end();
    }
    next();
  });
  embed.use(express.json());
  embed.use('/api/embed', (req, res, next) => {
    const key = req.get('X-SVC-Publishable-Key') ?? '';
    const origin = req.get('Origin');
    requests.push({ method: req.method, path: req.path, origin, key, body: req.body });
    if (!key || key === KEYS.revoked) return void res.status(401).type('text').send('Unauthorized');
    if (origin !== firstParty) return void res.status(403).type('text').send('Forbidden');
    // As the real gate must for the iframe to honour 429s: Retry-After is not a CORS-safelisted response header.
    res.set('Access-Control-Allow-Origin', origin).set('Access-Control-Expose-Headers', 'Retry-After');
    if (req.path === '/quote' && scenario.quoteGate) {
      const status = scenario.quoteGate;
      scenario.quoteGate = undefined;
      if (status === 429) return void res.status(429).set('Retry-After', '17').type('text').send('Too Many Requests');
      res.removeHeader('Access-Control-Allow-Origin');
      return void res
        .status(status)
        .type('text')
        .send(status === 401 ? 'Unauthorized' : 'Forbidden');
    }
    next();
  });
  embed.post('/api/embed/quote', (req, res) => {
    const body = req.body as Record<string, unknown>;
    if (typeof body['email'] !== 'string' || typeof body['destination'] !== 'string')
      return void res.status(400).json({ error: 'Missing or invalid required fields' });
    if (body['email'] === 'quote-error@sandbox.test')
      return void res.status(400).json({ error: 'Sandbox: this test e-mail always fails to quote' });
    const quoteId = randomUUID();
    const quoteNumber = `EXP-${'ABCDEFGHJK'[quotes.size % 10]}7Q2`;
    quotes.set(quoteId, { email: body['email'], polls: 0, quoteNumber });
    res.json({ quoteId, quoteNumber, instantQuoteEligible: body['email'] !== 'manual@sandbox.test' });
  });
  embed.get('/api/embed/options', (req, res) => {
    const quoteId = String(req.query['quoteId'] ?? '');
    if (!quoteId) return void res.status(400).json({ error: 'quoteId required' });
    const quote = quotes.get(quoteId);
    if (!quote) return void bareForbidden(res);
    quote.polls++;
    if (scenario.options429Once && quote.polls === 1)
      return void res.status(429).set('Retry-After', '1').type('text').send('Too Many Requests');
    if (
      quote.email === 'options-pending@sandbox.test' ||
      quote.polls <= scenario.pendingPolls + (scenario.options429Once ? 1 : 0)
    )
      return void res.json({ options: [], pending: true });
    res.json({
      quoteId,
      quoteNumber: quote.quoteNumber,
      currency: 'USD',
      recommendedPlanId: 'polar-shield-standard',
      options: OPTIONS,
      generatedAt: new Date().toISOString(),
    });
  });
  embed.post('/api/embed/checkout', (req, res) => {
    const { quoteId, planId } = req.body as { quoteId?: string; planId?: string };
    if (!quoteId || !quotes.has(quoteId)) return void bareForbidden(res);
    if (!OPTIONS.some((o) => o.planId === planId))
      return void res.status(400).json({ error: "Plan is not among this quote's options" });
    res.json({
      checkoutUrl: `${urls.EMBED}/checkout/${quoteId}?plan=${planId}`,
      expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    });
  });
  embed.get(
    '/checkout/:id',
    (_req, res) =>
      void res
        .type('html')
        .send('<!doctype html><html lang="en"><title>Checkout</title><h1>Hosted checkout</h1></html>'),
  );
  embed.post('/api/embed/payments', (req, res) => {
    const { quoteId, planId } = req.body as { quoteId: string; planId: string };
    const option = OPTIONS.find((o) => o.planId === planId);
    if (!quotes.has(quoteId)) return void bareForbidden(res);
    if (!option) return void res.status(400).json({ error: "Plan is not among this quote's options" });
    if ([...payments.values()].some((p) => p.quoteId === quoteId && p.status === 'succeeded'))
      return void res.status(409).json({ error: 'This quote is already purchased' });
    const paymentId = `pi_sim_${quoteId.slice(0, 8)}_${planId.length}`;
    payments.set(paymentId, { quoteId, planId, amountCents: option.premiumCents, status: 'requires_payment_method' });
    res.json({
      paymentId,
      clientSecret: `${paymentId}_secret_x`,
      amountCents: option.premiumCents,
      currency: 'USD',
      provider: 'simulated',
      mode: 'test',
    });
  });
  const result = (
    paymentId: string,
    status: string,
    failure?: { failureCode: string; declineCode?: string; failureMessage: string },
  ) => {
    const p = payments.get(paymentId)!;
    p.status = status === 'failed' ? 'requires_payment_method' : status;
    // The embed API names the policy on the paying call's success (its token rides in the certificate link).
    const policy =
      status === 'succeeded'
        ? { policyNumber: CERTIFICATE.policyNumber, accessToken: CERTIFICATE.token, documentUrl: CERTIFICATE.url }
        : {};
    return {
      paymentId,
      status,
      quoteId: p.quoteId,
      planId: p.planId,
      amountCents: p.amountCents,
      currency: 'USD',
      ...failure,
      ...policy,
    };
  };
  embed.post('/api/embed/payments/confirm', (req, res) => {
    const { paymentId, paymentMethod } = req.body as { paymentId: string; paymentMethod: string };
    if (!payments.has(paymentId)) return void bareForbidden(res);
    const card = String(paymentMethod).replace(/[\s-]/g, '');
    if (card === '4242424242424242') return void res.json(result(paymentId, 'succeeded'));
    if (card === '4000002500003155') return void res.json(result(paymentId, 'requires_action'));
    res.json(
      result(paymentId, 'failed', {
        failureCode: 'card_declined',
        declineCode: 'generic_decline',
        failureMessage: 'Your card was declined.',
      }),
    );
  });
  embed.post('/api/embed/payments/authenticate', (req, res) => {
    const { paymentId, approve } = req.body as { paymentId: string; approve: boolean };
    if (payments.get(paymentId)?.status !== 'requires_action')
      return void res.status(409).json({ error: 'This payment is not awaiting authentication' });
    res.json(
      approve
        ? result(paymentId, 'succeeded')
        : result(paymentId, 'failed', {
            failureCode: 'payment_intent_authentication_failure',
            failureMessage: 'We could not authenticate your payment method.',
          }),
    );
  });
  return embed;
}
