import request from 'supertest';
import { MODES } from '@expedition/contracts';
import { mintPublishableKey, mintSecretKey } from '../src';
import { SHOP, START, setup, corsHeaderNames, expectBare } from './gate-harness';

describe('embed gate: publishable key (401)', () => {
  it('answers 401 Unauthorized without CORS headers when no key is presented', async () => {
    const { quote } = setup();
    expectBare(await quote(null), 401, 'Unauthorized');
  });

  it('answers 401 for an unknown key', async () => {
    const { quote } = setup();
    expectBare(await quote(mintPublishableKey('test')), 401, 'Unauthorized');
  });

  it('answers 401 for a malformed key without asking the store', async () => {
    const { quote, store } = setup();
    expectBare(await quote('pk_op_test_nothex'), 401, 'Unauthorized');
    expectBare(await quote(`PK_OP_${'A'.repeat(48)}`), 401, 'Unauthorized');
    expect(store.calls).toEqual([]);
  });

  it('answers 401 for a secret key, which no route accepts', async () => {
    const { quote, store } = setup();
    expectBare(await quote(mintSecretKey('test').key), 401, 'Unauthorized');
    expect(store.calls).toEqual([]);
  });

  it('answers 401 for a revoked key', async () => {
    const { quote, addKey } = setup();
    expectBare(await quote(addKey('test', { revokedAt: new Date(START - 1000) })), 401, 'Unauthorized');
  });

  it('accepts a rotated key until its grace expiry and answers 401 after it', async () => {
    const { quote, addKey, clock } = setup();
    const key = addKey('live', { expiresAt: new Date(START + 60_000) });
    expect((await quote(key)).status).toBe(200);
    clock.t = START + 60_000;
    expectBare(await quote(key), 401, 'Unauthorized');
  });

  it.each(['suspended', 'pending'] as const)('answers 401 for any key of a %s operator', async (status) => {
    const { quote, addKey } = setup();
    for (const mode of MODES) {
      const key = addKey(mode, { operator: { status, embeddingEnabled: true } });
      expectBare(await quote(key), 401, 'Unauthorized');
    }
  });

  it('answers 401 for a live key whose operator has embedding disabled, 200 once enabled', async () => {
    const { quote, addKey } = setup();
    expectBare(
      await quote(addKey('live', { operator: { status: 'active', embeddingEnabled: false } })),
      401,
      'Unauthorized',
    );
    const res = await quote(addKey('live', { operator: { status: 'active', embeddingEnabled: true } }));
    expect(res.status).toBe(200);
    expect(res.body.context.mode).toBe('live');
  });

  it('accepts a test key before embedding is enabled', async () => {
    const { quote, addKey } = setup();
    const res = await quote(addKey('test', { operator: { status: 'active', embeddingEnabled: false } }));
    expect(res.status).toBe(200);
    expect(res.body.context.mode).toBe('test');
  });

  it('answers 401 before looking at the Origin (key first)', async () => {
    const { quote } = setup();
    expectBare(await quote(null, null), 401, 'Unauthorized');
    expectBare(await quote(mintPublishableKey('test'), 'https://evil.example'), 401, 'Unauthorized');
  });

  it('passes store failures to the error handler instead of answering 401', async () => {
    const { app, store, addKey } = setup();
    const key = addKey('test');
    store.loadKey = async () => {
      throw new Error('db unavailable');
    };
    const res = await request(app).post('/api/embed/quote').set('X-SVC-Publishable-Key', key).set('Origin', SHOP);
    expect(res.status).toBe(503);
    expect(corsHeaderNames(res)).toEqual([]);
  });
});

describe('embed gate: where the key is read', () => {
  it('accepts ?pk= on GET /api/embed/options', async () => {
    const { options, addKey } = setup();
    const key = addKey('test');
    const res = await options(null, SHOP, `quoteId=q_1&pk=${key}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ options: [], pending: true });
  });

  it('reads the header first: a valid header wins over a bad ?pk', async () => {
    const { options, addKey } = setup();
    expect((await options(addKey('test'), SHOP, 'quoteId=q_1&pk=garbage')).status).toBe(200);
  });

  it('reads the header first: a bad header is not rescued by a valid ?pk', async () => {
    const { options, addKey } = setup();
    const key = addKey('test');
    expectBare(await options(mintPublishableKey('test'), SHOP, `quoteId=q_1&pk=${key}`), 401, 'Unauthorized');
  });

  it('trims the header', async () => {
    const { quote, addKey } = setup();
    expect((await quote(`  ${addKey('test')}\t`)).status).toBe(200);
  });

  it('treats a blank header as absent and falls back to ?pk on options', async () => {
    const { options, addKey } = setup();
    expect((await options('   ', SHOP, `quoteId=q_1&pk=${addKey('test')}`)).status).toBe(200);
  });

  it('ignores ?pk on POST /api/embed/quote', async () => {
    const { app, addKey } = setup();
    const res = await request(app)
      .post(`/api/embed/quote?pk=${addKey('test')}`)
      .set('Origin', SHOP)
      .send({ destination: 'antarctica' });
    expectBare(res, 401, 'Unauthorized');
  });

  it('does not accept a repeated ?pk', async () => {
    const { options, addKey } = setup();
    const key = addKey('test');
    expectBare(await options(null, SHOP, `quoteId=q_1&pk=${key}&pk=${key}`), 401, 'Unauthorized');
  });
});
