import { createHmac } from 'node:crypto';
import {
  computeChallengeId,
  createChallenge,
  decodeOpaque,
  decodeRequest,
  formatWwwAuthenticate,
  isChallengeExpired,
  parsePaymentChallenges,
  verifyChallengeBinding,
  type CreateChallengeInput,
  type PaymentChallenge,
} from './challenge';
import { encodeJcsBase64Url } from './encoding';

const SECRET = 'current-challenge-secret-0123456789abcdef';
const PREVIOUS = 'previous-challenge-secret-0123456789abcdef';
const EXPIRES = new Date('2026-05-01T12:05:00.000Z');

const input = (overrides: Partial<CreateChallengeInput> = {}): CreateChallengeInput => ({
  secret: SECRET,
  realm: 'api.example.com',
  method: 'stripe',
  intent: 'charge',
  request: {
    amount: '1234',
    currency: 'usd',
    externalId: 'quote_1',
    methodDetails: { networkId: 'profile_test_1', paymentMethodTypes: ['card'] },
  },
  expiresAt: EXPIRES,
  ...overrides,
});

/** Independent re-implementation of notes A2/A3 with node:crypto, to pin the wire format. */
function expectedId(secret: string, parts: string[]): string {
  return createHmac('sha256', secret).update(parts.join('|')).digest('base64url');
}

describe('createChallenge', () => {
  it('encodes request as base64url JCS and binds seven slots with HMAC-SHA256 (empty optional slots)', () => {
    const challenge = createChallenge(input());
    const requestJson =
      '{"amount":"1234","currency":"usd","externalId":"quote_1","methodDetails":{"networkId":"profile_test_1","paymentMethodTypes":["card"]}}';
    const request = Buffer.from(requestJson).toString('base64url');

    expect(challenge).toEqual({
      id: expectedId(SECRET, ['api.example.com', 'stripe', 'charge', request, '2026-05-01T12:05:00.000Z', '', '']),
      realm: 'api.example.com',
      method: 'stripe',
      intent: 'charge',
      request,
      expires: '2026-05-01T12:05:00.000Z',
    });
    expect(challenge.request).not.toMatch(/=/);
    expect(challenge.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('binds digest and opaque in their slots, and leaves description unbound', () => {
    const digest = 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:';
    const challenge = createChallenge(input({ digest, opaque: { planId: 'plan_std' }, description: 'Standard plan' }));
    const opaque = Buffer.from('{"planId":"plan_std"}').toString('base64url');
    expect(challenge.opaque).toBe(opaque);
    expect(challenge.id).toBe(
      expectedId(SECRET, [
        'api.example.com',
        'stripe',
        'charge',
        challenge.request,
        challenge.expires!,
        digest,
        opaque,
      ]),
    );
    expect(challenge.description).toBe('Standard plan');
    expect(verifyChallengeBinding({ secrets: [SECRET], echoed: { ...challenge, description: 'anything' } })).toBe(true);
  });

  it('is deterministic whatever the key order of the request object', () => {
    const a = createChallenge(input());
    const b = createChallenge(
      input({
        request: {
          methodDetails: { paymentMethodTypes: ['card'], networkId: 'profile_test_1' },
          externalId: 'quote_1',
          currency: 'usd',
          amount: '1234',
        },
      }),
    );
    expect(b.id).toBe(a.id);
    expect(b.request).toBe(a.request);
  });

  it('refuses short secrets, numeric amounts, uppercase currency and missing stripe details', () => {
    expect(() => createChallenge(input({ secret: 'short' }))).toThrow(RangeError);
    const bad = (request: unknown) => () => createChallenge(input({ request: request as never }));
    const base = input().request;
    expect(bad({ ...base, amount: 1234 })).toThrow(TypeError);
    expect(bad({ ...base, amount: '12.34' })).toThrow(TypeError);
    expect(bad({ ...base, amount: '01234' })).toThrow(TypeError);
    expect(bad({ ...base, currency: 'USD' })).toThrow(TypeError);
    expect(bad({ ...base, methodDetails: { networkId: '', paymentMethodTypes: ['card'] } })).toThrow(TypeError);
    expect(bad({ ...base, methodDetails: { networkId: 'p', paymentMethodTypes: [] } })).toThrow(TypeError);
    expect(() => createChallenge(input({ realm: 'a|b' }))).toThrow(TypeError);
  });

  it('decodes request and opaque back to their values', () => {
    const challenge = createChallenge(input({ opaque: { planId: 'plan_std' } }));
    expect(decodeRequest(challenge.request)).toEqual(input().request);
    expect(decodeOpaque(challenge.opaque!)).toEqual({ planId: 'plan_std' });
    expect(() => decodeRequest(encodeJcsBase64Url({ amount: 5 }))).toThrow(TypeError);
    expect(() => decodeOpaque(encodeJcsBase64Url({ planId: 5 }))).toThrow(TypeError);
  });
});

describe('verifyChallengeBinding', () => {
  const issued = createChallenge(input({ opaque: { planId: 'plan_std' }, digest: 'sha-256=:abc=:' }));

  it('accepts the challenge as issued', () => {
    expect(verifyChallengeBinding({ secrets: [SECRET], echoed: issued })).toBe(true);
  });

  it.each<[string, Partial<PaymentChallenge>]>([
    ['request (amount lowered)', { request: encodeJcsBase64Url({ ...input().request, amount: '1' }) }],
    ['expires (extended)', { expires: '2030-01-01T00:00:00.000Z' }],
    ['expires (removed)', { expires: undefined }],
    ['opaque (other plan)', { opaque: encodeJcsBase64Url({ planId: 'plan_premium' }) }],
    ['digest', { digest: 'sha-256=:xyz=:' }],
    ['realm', { realm: 'evil.example.com' }],
    ['method', { method: 'tempo' }],
    ['intent', { intent: 'session' }],
    ['id', { id: issued.id.slice(0, -1) + (issued.id.endsWith('A') ? 'B' : 'A') }],
    ['id (truncated)', { id: issued.id.slice(0, 10) }],
  ])('rejects a tampered %s', (_name, change) => {
    expect(verifyChallengeBinding({ secrets: [SECRET, PREVIOUS], echoed: { ...issued, ...change } })).toBe(false);
  });

  it('rejects slot-shifting values that contain "|"', () => {
    const forged = { ...issued, realm: `${issued.realm}|stripe`, method: 'charge', intent: issued.request };
    expect(verifyChallengeBinding({ secrets: [SECRET], echoed: forged })).toBe(false);
  });

  it('accepts challenges signed with the previous secret during rotation, and only while it is listed', () => {
    const old = createChallenge(input({ secret: PREVIOUS }));
    expect(verifyChallengeBinding({ secrets: [SECRET, PREVIOUS], echoed: old })).toBe(true);
    expect(verifyChallengeBinding({ secrets: [SECRET], echoed: old })).toBe(false);
    expect(verifyChallengeBinding({ secrets: [], echoed: old })).toBe(false);
  });

  it('agrees with computeChallengeId', () => {
    expect(computeChallengeId(SECRET, issued)).toBe(issued.id);
  });
});

describe('isChallengeExpired', () => {
  it('is false before expires and true at or after it, and true for an unparseable value', () => {
    expect(isChallengeExpired({ expires: EXPIRES.toISOString() }, new Date(EXPIRES.getTime() - 1))).toBe(false);
    expect(isChallengeExpired({ expires: EXPIRES.toISOString() }, EXPIRES)).toBe(true);
    expect(isChallengeExpired({ expires: 'tomorrow' }, EXPIRES)).toBe(true);
  });
});

describe('formatWwwAuthenticate', () => {
  it('renders quoted auth-params in the documented order', () => {
    const challenge = createChallenge(input({ opaque: { planId: 'p' } }));
    expect(formatWwwAuthenticate(challenge)).toBe(
      `Payment id="${challenge.id}", realm="api.example.com", method="stripe", intent="charge", ` +
        `request="${challenge.request}", expires="2026-05-01T12:05:00.000Z", opaque="${challenge.opaque}"`,
    );
  });

  it('escapes quotes and backslashes in description and replaces characters a header cannot carry', () => {
    const challenge = createChallenge(input({ description: 'Plan "Standard" \\ 2 travelers\r\nInjected: x — ok' }));
    const header = formatWwwAuthenticate(challenge);
    expect(header.endsWith(', description="Plan \\"Standard\\" \\\\ 2 travelers??Injected: x ? ok"')).toBe(true);
    expect(header).not.toMatch(/[\r\n]/);
  });

  it('round-trips through parsePaymentChallenges, next to other schemes', () => {
    const challenge = createChallenge(input({ description: 'say "hi", ok', opaque: { planId: 'p' } }));
    const header = `Bearer realm="x", ${formatWwwAuthenticate(challenge)}, Payment id="only-id"`;
    expect(parsePaymentChallenges(header)).toEqual([challenge]);
  });

  it('parses unquoted tokens and case-insensitive names', () => {
    expect(parsePaymentChallenges('payment ID=abc, Realm=r, method=stripe, intent=charge, request=eyJ9')).toEqual([
      { id: 'abc', realm: 'r', method: 'stripe', intent: 'charge', request: 'eyJ9' },
    ]);
  });
});
