import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import request from 'supertest';
import { ACP_API_VERSION } from '@expedition/contracts';
import { hashToken, randomToken } from '@expedition/platform';
import { HIGH_S_MESSAGE, isLowS, parseSigningPublicKey, signingInput } from '@expedition/webhook-signature';
import { antarcticaQuote, createHarness, type Harness } from './harness';

/**
 * ACP request signatures (docs/acp.md "Request signatures"): a key with a registered signing key must sign every
 * request (`Signature` over Timestamp, method, path and the body's canonical JSON; `Timestamp` within ±300 s; ES256
 * low-S only); a bad, missing or stale one is 401 `invalid_signature` and writes nothing. A signed POST is served under
 * the Idempotency-Key it first came with only. A key without a signing key is not asked to sign.
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
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
/** (r, s) → (r, n − s): the other signature ECDSA accepts for the same bytes. */
function otherS(signature: Buffer): Buffer {
  const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
  return Buffer.concat([
    signature.subarray(0, 32),
    Buffer.from((P256_ORDER - s).toString(16).padStart(64, '0'), 'hex'),
  ]);
}
/** ES256 as docs/acp.md asks: Node signs high-S about half the time, so the platform normalizes. */
const signEs256: Signer = (data) => {
  const signature = sign('sha256', data, { key: es256.privateKey, dsaEncoding: 'ieee-p1363' });
  return isLowS(signature) ? signature : otherS(signature);
};

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

async function sessionsOf(key: string): Promise<number> {
  const row = await h.db.prisma.agentKey.findUniqueOrThrow({ where: { hash: hashToken(key) } });
  return h.db.prisma.acpCheckoutSession.count({ where: { agentKeyId: row.id } });
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

describe('ES256 signatures are low-S only (no second valid signature from a captured one)', () => {
  it("refuses a valid signature's high-S twin (r, n − s): 401 invalid_signature saying so, nothing written", async () => {
    const key = await keyWith(es256.publicKey);
    const headers = signed(signEs256, 'POST', '/acp/v1/checkout_sessions', createBody);
    const twin = otherS(Buffer.from(headers.Signature, 'base64url')).toString('base64url');
    const res = await create(key, { ...headers, Signature: twin });
    await expectRefusedAndNothingWritten(res, /low-S/);
    expect(res.body.message).toBe(HIGH_S_MESSAGE);
    await expectNothingWritten(key);
    expect((await create(key, headers)).status).toBe(201);
  });
});

describe('a signed POST is bound to its first Idempotency-Key (it is not in the signed bytes)', () => {
  const path = '/acp/v1/checkout_sessions';

  it('refuses a captured signed create replayed with a new Idempotency-Key: 401 invalid_signature, one session', async () => {
    const key = await keyWith(ed25519.publicKey);
    const captured = signed(signEd25519, 'POST', path, createBody);
    expect((await create(key, captured)).status).toBe(201);
    const replay = await create(key, { ...captured, 'Idempotency-Key': idem() });
    await expectRefusedAndNothingWritten(replay, /already sent with another Idempotency-Key/);
    expect(await sessionsOf(key)).toBe(1);
  });

  it('answers a retry with the same Idempotency-Key and signature with the kept answer (Idempotent-Replayed)', async () => {
    const key = await keyWith(ed25519.publicKey);
    const headers = { ...signed(signEd25519, 'POST', path, createBody), 'Idempotency-Key': idem() };
    const first = await create(key, headers);
    const retry = await create(key, headers);
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await sessionsOf(key)).toBe(1);
  });

  it('serves the same body signed anew (another Timestamp) under a new key: a second session', async () => {
    const key = await keyWith(ed25519.publicKey);
    const now = h.clock.now().getTime();
    expect((await create(key, signed(signEd25519, 'POST', path, createBody, new Date(now).toISOString()))).status).toBe(
      201,
    );
    const later = new Date(now + 1).toISOString();
    expect((await create(key, signed(signEd25519, 'POST', path, createBody, later))).status).toBe(201);
    expect(await sessionsOf(key)).toBe(2);
  });

  it('ES256: a fresh signature of the same signed bytes is the same request (refused under a new key)', async () => {
    const key = await keyWith(es256.publicKey);
    const timestamp = h.clock.now().toISOString();
    expect((await create(key, signed(signEs256, 'POST', path, createBody, timestamp))).status).toBe(201);
    const resigned = signed(signEs256, 'POST', path, createBody, timestamp);
    await expectRefusedAndNothingWritten(await create(key, resigned), /another Idempotency-Key/);
    expect(await sessionsOf(key)).toBe(1);
  });

  it('of three uses at once under three new keys, one is served', async () => {
    const key = await keyWith(ed25519.publicKey);
    const captured = signed(signEd25519, 'POST', path, createBody);
    const answers = await Promise.all([create(key, captured), create(key, captured), create(key, captured)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 401, 401]);
    expect(await sessionsOf(key)).toBe(1);
  });

  it('keeps a use for the signature window only: once it has passed, rows of older requests are deleted', async () => {
    const key = await keyWith(ed25519.publicKey);
    expect((await create(key, signed(signEd25519, 'POST', path, createBody))).status).toBe(201);
    const before = await h.db.prisma.acpSignatureUse.count();
    h.clock.advance(601_000);
    expect((await create(key, signed(signEd25519, 'POST', path, createBody))).status).toBe(201);
    expect(before).toBeGreaterThan(0);
    expect(await h.db.prisma.acpSignatureUse.count({ where: { expiresAt: { lt: h.clock.now() } } })).toBe(0);
    expect(await h.db.prisma.acpSignatureUse.count()).toBe(1);
  });

  it('a GET is not bound: the same signed read may be sent again', async () => {
    const key = await keyWith(ed25519.publicKey);
    const created = await create(key, signed(signEd25519, 'POST', path, createBody));
    const read = `${path}/${created.body.id}`;
    const headers = {
      Authorization: `Bearer ${key}`,
      'API-Version': ACP_API_VERSION,
      ...signed(signEd25519, 'GET', read, undefined),
    };
    expect((await request(h.app).get(read).set(headers)).status).toBe(200);
    expect((await request(h.app).get(read).set(headers)).status).toBe(200);
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
