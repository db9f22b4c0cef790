import { createChallenge } from './challenge';
import { formatAuthorizationPayment, parseAuthorizationPayment } from './credential';
import { base64UrlEncode } from './encoding';
import { MPP_PROBLEM_STATUS, problemDetails, type MppProblemCode } from './problem';
import { formatPaymentReceipt, parsePaymentReceipt } from './receipt';

const challenge = createChallenge({
  secret: 'a-secret-of-at-least-thirty-two-bytes!!',
  realm: 'api.example.com',
  method: 'stripe',
  intent: 'charge',
  request: { amount: '500', currency: 'usd', methodDetails: { networkId: 'profile_1', paymentMethodTypes: ['card'] } },
  expiresAt: new Date('2026-05-01T00:00:00Z'),
  description: 'Basic plan',
});

const encode = (value: unknown) => `Payment ${base64UrlEncode(JSON.stringify(value))}`;

describe('parseAuthorizationPayment', () => {
  it('decodes a credential produced by formatAuthorizationPayment', () => {
    const credential = { challenge, source: 'did:key:z6Mk', payload: { spt: 'spt_test_abc', externalId: 'quote_1' } };
    const header = formatAuthorizationPayment(credential);
    expect(header).toMatch(/^Payment [A-Za-z0-9_-]+$/);
    expect(parseAuthorizationPayment(header)).toEqual({ ok: true, credential });
  });

  it('accepts the scheme name in any case and surrounding spaces', () => {
    const token = base64UrlEncode(JSON.stringify({ challenge, payload: { spt: 'spt_test_1' } }));
    expect(parseAuthorizationPayment(`  pAyMeNt   ${token} `).ok).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['empty header', ''],
    ['another scheme', 'Bearer abc'],
    ['a scheme merely starting with Payment', 'PaymentX abc'],
  ])('answers payment-required for %s', (_name, header) => {
    expect(parseAuthorizationPayment(header)).toEqual({ ok: false, code: 'payment-required' });
  });

  it.each([
    ['scheme without token', 'Payment'],
    ['not base64url', 'Payment abc+/def'],
    ['base64url but not JSON', `Payment ${base64UrlEncode('hello')}`],
    ['JSON but an array', encode([challenge])],
    ['no challenge', encode({ payload: { spt: 'spt_test_1' } })],
    ['challenge without id', encode({ challenge: { ...challenge, id: undefined }, payload: { spt: 'spt_test_1' } })],
    [
      'challenge field not a string',
      encode({ challenge: { ...challenge, expires: 5 }, payload: { spt: 'spt_test_1' } }),
    ],
    ['no payload', encode({ challenge })],
    ['stripe payload without spt', encode({ challenge, payload: {} })],
    ['stripe payload with empty spt', encode({ challenge, payload: { spt: '' } })],
    ['externalId not a string', encode({ challenge, payload: { spt: 'spt_test_1', externalId: 7 } })],
    ['source not a string', encode({ challenge, source: 1, payload: { spt: 'spt_test_1' } })],
  ])('answers malformed-credential for %s', (_name, header) => {
    expect(parseAuthorizationPayment(header)).toEqual({ ok: false, code: 'malformed-credential' });
  });

  it('still parses another method so the caller can answer 400 method-unsupported', () => {
    const result = parseAuthorizationPayment(
      encode({ challenge: { ...challenge, method: 'tempo' }, payload: { hash: '0x1' } }),
    );
    expect(result.ok && result.credential.challenge.method).toBe('tempo');
  });
});

describe('formatPaymentReceipt', () => {
  it('encodes base64url JSON without padding that decodes to the receipt', () => {
    const header = formatPaymentReceipt({
      status: 'success',
      method: 'stripe',
      timestamp: new Date('2026-05-01T10:00:00Z'),
      reference: 'pi_123',
      externalId: 'quote_1',
    });
    expect(header).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({
      status: 'success',
      method: 'stripe',
      timestamp: '2026-05-01T10:00:00.000Z',
      reference: 'pi_123',
      externalId: 'quote_1',
    });
    expect(parsePaymentReceipt(header)?.reference).toBe('pi_123');
  });

  it('parsePaymentReceipt rejects non-receipts', () => {
    expect(parsePaymentReceipt('%%%')).toBeUndefined();
    expect(parsePaymentReceipt(base64UrlEncode('{"status":"failed"}'))).toBeUndefined();
  });
});

describe('problemDetails', () => {
  it.each<[MppProblemCode, number]>([
    ['payment-required', 402],
    ['malformed-credential', 402],
    ['invalid-challenge', 402],
    ['verification-failed', 402],
    ['payment-insufficient', 402],
    ['payment-expired', 402],
    ['method-unsupported', 400],
  ])('%s → %i with a paymentauth.org type', (code, status) => {
    const body = problemDetails(code, { detail: 'why', challengeId: 'ch_1' });
    expect(body).toEqual({
      type: `https://paymentauth.org/problems/${code}`,
      title: expect.any(String),
      status,
      detail: 'why',
      challengeId: 'ch_1',
    });
    expect(MPP_PROBLEM_STATUS[code]).toBe(status);
  });

  it('falls back to a stock detail and omits an absent challengeId', () => {
    const body = problemDetails('payment-expired');
    expect(body.detail.length).toBeGreaterThan(0);
    expect('challengeId' in body).toBe(false);
  });
});
