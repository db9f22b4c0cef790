import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import request from 'supertest';
import { ACP_API_VERSION } from '@expedition/contracts';
import { hashToken, randomToken } from '@expedition/platform';
import { parseSigningPublicKey, signingInput } from '@expedition/webhook-signature';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/**
 * ACP request signatures (docs/acp.md "Request signatures"): a key with a registered signing key must sign every
 * request (`Signature` over Timestamp, method, path and the body's canonical JSON; `Timestamp` within ±300 s); a bad,
 * missing or stale one is 401 `invalid_signature` and writes nothing. A key without one is not asked to sign.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

let seq = 0;
const idem = () => `idem-sig-${process.pid}-${++seq}`;

async function keyWith(publicKey: KeyObject | null): Promise<string> {
  const secret = randomToken('acpk_test', 32);
  const parsed = publicKey ? parseSigningPublicKey(publicKey.export({ type: 'spki', format: 'pem' }).toString()) : null;
  if (parsed && 'error' in parsed) throw new Error(parsed.error);
  await h.db.prisma.agentKey.create({
    data: {
      name: 'Signing platform',
      mode: 'test',
      prefix: secret.slice(0, 16),
      hash: hashToken(secret),
      signingPublicKey: parsed?.pem,
      signingAlgorithm: parsed?.algorithm,
    },
  });
  return secret;
}

type Signer = (data: Buffer) => Buffer;
const ed25519 = generateKeyPairSync('ed25519');
const es256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const signEd25519: Signer = (data) => sign(null, data, ed25519.privateKey);
const signEs256: Signer = (data) => sign('sha256', data, { key: es256.privateKey, dsaEncoding: 'ieee-p1363' });

function signed(signer: Signer, method: string, path: string, body: unknown, timestamp = h.clock.now().toISOString()) {
  return {
    Signature: signer(signingInput({ timestamp, method, path, body })).toString('base64url'),
    Timestamp: timestamp,
  };
}

const createBody = {
  line_items: [{ id: 'any-plan' }],
  currency: 'usd',
  capabilities: {},
  metadata: { trip: antarcticaQuote },
};

function create(key: string, extra: Record<string, string> = {}, body: object = createBody) {
  return request(h.app)
    .post('/acp/v1/checkout_sessions')
    .set({ Authorization: `Bearer ${key}`, 'API-Version': ACP_API_VERSION, 'Idempotency-Key': idem(), ...extra })
    .send(body);
}

async function expectRefusedAndNothingWritten(res: request.Response, message: RegExp) {
  expect(res.status).toBe(401);
  expect(res.body).toEqual({
    type: 'invalid_request',
    code: 'invalid_signature',
    message: expect.stringMatching(message),
  });
}

describe('a platform with a registered signing key', () => {
  it('Ed25519: a signed create is served (201), a signed read too', async () => {
    const key = await keyWith(ed25519.publicKey);
    const res = await create(key, signed(signEd25519, 'POST', '/acp/v1/checkout_sessions', createBody));
    expect(res.status).toBe(201);
    const path = `/acp/v1/checkout_sessions/${res.body.id}`;
    const read = await request(h.app)
      .get(path)
      .set({
        Authorization: `Bearer ${key}`,
        'API-Version': ACP_API_VERSION,
        ...signed(signEd25519, 'GET', path, undefined),
      });
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(res.body.id);
  });

  it('ES256: a signed create is served; the canonical JSON ignores key order', async () => {
    const key = await keyWith(es256.publicKey);
    const reordered = {
      metadata: createBody.metadata,
      capabilities: {},
      currency: 'usd',
      line_items: createBody.line_items,
    };
    const res = await create(key, signed(signEs256, 'POST', '/acp/v1/checkout_sessions', createBody), reordered);
    expect(res.status).toBe(201);
  });

  it('refuses a request without Signature or Timestamp: 401 invalid_signature, nothing written', async () => {
    const key = await keyWith(ed25519.publicKey);
    const { Signature, Timestamp } = signed(signEd25519, 'POST', '/acp/v1/checkout_sessions', createBody);
    for (const headers of [{}, { Signature }, { Timestamp }]) {
      await expectRefusedAndNothingWritten(
        await create(key, headers as Record<string, string>),
        /Signature and Timestamp headers are required/,
      );
    }
    await expectNothingWritten(key);
  });

  it('refuses a signature over another body, another path, or by another key', async () => {
    const key = await keyWith(ed25519.publicKey);
    const other = generateKeyPairSync('ed25519');
    const attempts = [
      signed(signEd25519, 'POST', '/acp/v1/checkout_sessions', { ...createBody, currency: 'eur' }),
      signed(signEd25519, 'POST', '/acp/v1/checkout_sessions/acs_other/cancel', createBody),
      signed((d) => sign(null, d, other.privateKey), 'POST', '/acp/v1/checkout_sessions', createBody),
      signed(signEs256, 'POST', '/acp/v1/checkout_sessions', createBody),
      { ...signed(signEd25519, 'POST', '/acp/v1/checkout_sessions', createBody), Signature: 'not*base64url' },
    ];
    for (const headers of attempts) await expectRefusedAndNothingWritten(await create(key, headers), /Signature/);
    await expectNothingWritten(key);
  });

  it('refuses a stale or future Timestamp (more than 300 s away) and one that is not RFC 3339', async () => {
    const key = await keyWith(ed25519.publicKey);
    const now = h.clock.now().getTime();
    for (const offset of [-301_000, 301_000]) {
      const timestamp = new Date(now + offset).toISOString();
      await expectRefusedAndNothingWritten(
        await create(key, signed(signEd25519, 'POST', '/acp/v1/checkout_sessions', createBody, timestamp)),
        /outside the allowed window/,
      );
    }
    const edge = new Date(now - 299_000).toISOString();
    expect((await create(key, signed(signEd25519, 'POST', '/acp/v1/checkout_sessions', createBody, edge))).status).toBe(
      201,
    );
    await expectRefusedAndNothingWritten(
      await create(
        key,
        signed(signEd25519, 'POST', '/acp/v1/checkout_sessions', createBody, String(Math.floor(now / 1000))),
      ),
      /RFC 3339/,
    );
  });
});

describe('a platform without a signing key', () => {
  it('is not asked to sign', async () => {
    const key = await keyWith(null);
    expect((await create(key)).status).toBe(201);
  });
});

async function expectNothingWritten(key: string) {
  const row = await h.db.prisma.agentKey.findUniqueOrThrow({ where: { hash: hashToken(key) } });
  expect(await h.db.prisma.acpCheckoutSession.count({ where: { agentKeyId: row.id } })).toBe(0);
  expect(await h.db.prisma.idempotencyRecord.count({ where: { scope: { startsWith: `acp:${row.id}:` } } })).toBe(0);
}
