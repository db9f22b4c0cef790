import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { computeSignature, parseSignatureHeader, signPayload, verifySignature } from './webhook-signature';

const SECRET = 'whsec_test_current_0123456789abcdef';
const OLD_SECRET = 'whsec_test_previous_0123456789abcdef';
const NOW = 1_780_000_000;
const BODY = JSON.stringify({ eventId: 'evt_1', type: 'policy.issued', data: { premiumCents: 12345 } });

function hmacHex(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

describe('signPayload', () => {
  it('produces t and a lowercase hex HMAC-SHA256 over "t.body"', () => {
    const header = signPayload(BODY, SECRET, NOW);
    expect(header).toBe(`t=${NOW},v1=${hmacHex(SECRET, `${NOW}.${BODY}`)}`);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('emits one v1 per active secret, in order', () => {
    const header = signPayload(BODY, [SECRET, OLD_SECRET], NOW);
    expect(header).toBe(`t=${NOW},v1=${hmacHex(SECRET, `${NOW}.${BODY}`)},v1=${hmacHex(OLD_SECRET, `${NOW}.${BODY}`)}`);
  });

  it('signs Buffers byte for byte like the equivalent string', () => {
    expect(signPayload(Buffer.from(BODY), SECRET, NOW)).toBe(signPayload(BODY, SECRET, NOW));
  });

  it('rejects an empty secret list and non-integer timestamps', () => {
    expect(() => signPayload(BODY, [], NOW)).toThrow(TypeError);
    expect(() => signPayload(BODY, '', NOW)).toThrow(TypeError);
    expect(() => signPayload(BODY, SECRET, 1.5)).toThrow(RangeError);
  });
});

describe('verifySignature', () => {
  const verify = (header: string | undefined, extra: Partial<Parameters<typeof verifySignature>[0]> = {}) =>
    verifySignature({ rawBody: BODY, header, secrets: SECRET, nowSec: NOW, ...extra });

  it('accepts its own header (round trip) and returns the timestamp', () => {
    expect(verify(signPayload(BODY, SECRET, NOW))).toEqual({ ok: true, timestamp: NOW });
  });

  it('accepts a Buffer body', () => {
    const header = signPayload(BODY, SECRET, NOW);
    expect(verify(header, { rawBody: Buffer.from(BODY) })).toEqual({ ok: true, timestamp: NOW });
  });

  describe('secret rotation', () => {
    it('accepts a header signed with both secrets by a receiver holding only the new one', () => {
      expect(verify(signPayload(BODY, [SECRET, OLD_SECRET], NOW)).ok).toBe(true);
    });

    it('accepts a header signed with only the old secret when the receiver holds both', () => {
      expect(verify(signPayload(BODY, OLD_SECRET, NOW), { secrets: [SECRET, OLD_SECRET] }).ok).toBe(true);
    });

    it('rejects a header signed with only the old secret once it is dropped', () => {
      expect(verify(signPayload(BODY, OLD_SECRET, NOW))).toEqual({ ok: false, reason: 'signature_mismatch' });
    });
  });

  it('rejects a tampered body', () => {
    const header = signPayload(BODY, SECRET, NOW);
    expect(verify(header, { rawBody: BODY.replace('12345', '12346') })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('rejects a re-serialized body (whitespace differs), which is why receivers must verify the raw bytes', () => {
    const header = signPayload(BODY, SECRET, NOW);
    expect(verify(header, { rawBody: JSON.stringify(JSON.parse(BODY), null, 2) }).ok).toBe(false);
  });

  it('rejects a wrong secret', () => {
    expect(verify(signPayload(BODY, 'whsec_other', NOW))).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('rejects a signature whose t was edited', () => {
    const header = signPayload(BODY, SECRET, NOW).replace(`t=${NOW}`, `t=${NOW + 1}`);
    expect(verify(header)).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('rejects timestamps older than the tolerance and accepts the boundary', () => {
    const header = signPayload(BODY, SECRET, NOW - 301);
    expect(verify(header)).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verify(signPayload(BODY, SECRET, NOW - 300)).ok).toBe(true);
  });

  it('rejects timestamps too far in the future (two-sided tolerance)', () => {
    expect(verify(signPayload(BODY, SECRET, NOW + 301))).toEqual({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
    expect(verify(signPayload(BODY, SECRET, NOW + 300)).ok).toBe(true);
  });

  it('honours a custom tolerance and refuses a non-positive one', () => {
    const header = signPayload(BODY, SECRET, NOW - 20);
    expect(verify(header, { toleranceSec: 10 })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(() => verify(header, { toleranceSec: 0 })).toThrow(RangeError);
    expect(() => verify(header, { toleranceSec: -5 })).toThrow(RangeError);
    expect(() => verify(header, { toleranceSec: Number.NaN })).toThrow(RangeError);
  });

  it('ignores v0 and other schemes: a v0-only header is rejected (anti-downgrade)', () => {
    const v0 = hmacHex(SECRET, `${NOW}.${BODY}`);
    expect(verify(`t=${NOW},v0=${v0}`)).toEqual({ ok: false, reason: 'no_v1' });
    expect(verify(`t=${NOW},v0=${v0},v2=${v0}`)).toEqual({ ok: false, reason: 'no_v1' });
  });

  it('still accepts a valid v1 next to a v0 dummy and a bogus v1', () => {
    const good = signPayload(BODY, SECRET, NOW);
    expect(verify(`${good},v1=deadbeef,v0=${'0'.repeat(64)}`).ok).toBe(true);
    expect(verify(`t=${NOW},v1=${'a'.repeat(64)},${good.split(',')[1]}`).ok).toBe(true);
  });

  it('reports a missing header', () => {
    expect(verify(undefined)).toEqual({ ok: false, reason: 'missing_header' });
    expect(verify('   ')).toEqual({ ok: false, reason: 'missing_header' });
  });

  it.each([
    ['no t', `v1=${'a'.repeat(64)}`],
    ['non-numeric t', `t=abc,v1=${'a'.repeat(64)}`],
    ['negative t', `t=-5,v1=${'a'.repeat(64)}`],
    ['two t', `t=${NOW},t=${NOW},v1=${'a'.repeat(64)}`],
    ['part without =', `t=${NOW},v1`],
    ['empty key', `t=${NOW},=abc`],
    ['garbage', 'hello world'],
  ])('reports a malformed header: %s', (_name, header) => {
    expect(verify(header)).toEqual({ ok: false, reason: 'malformed_header' });
  });

  it('splits only on the first "=" of each part', () => {
    expect(parseSignatureHeader(`t=${NOW},v1=abc=def`)).toEqual({ timestamp: NOW, v1: ['abc=def'] });
  });

  it('tolerates spaces around parts', () => {
    const [t, v1] = signPayload(BODY, SECRET, NOW).split(',');
    expect(verify(` ${t}, ${v1} `).ok).toBe(true);
  });

  it('throws on a missing secret instead of silently failing open or closed', () => {
    expect(() => verifySignature({ rawBody: BODY, header: 't=1,v1=a', secrets: [], nowSec: NOW })).toThrow(TypeError);
  });
});

describe('compatibility with the stripe package', () => {
  it('verifies a header produced by Stripe.webhooks.generateTestHeaderString', () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: SECRET, timestamp: NOW });
    expect(verifySignature({ rawBody: BODY, header, secrets: SECRET, nowSec: NOW })).toEqual({
      ok: true,
      timestamp: NOW,
    });
    expect(header).toBe(signPayload(BODY, SECRET, NOW));
  });

  it('our header (with rotation) passes stripe.webhooks.constructEvent', () => {
    const header = signPayload(BODY, ['whsec_other_active_secret', SECRET], NOW);
    const event = Stripe.webhooks.constructEvent(BODY, header, SECRET, 300, undefined, NOW * 1000) as unknown as {
      eventId: string;
    };
    expect(event.eventId).toBe('evt_1');
  });

  it('stripe rejects our header for a tampered body, like we do', () => {
    const header = signPayload(BODY, SECRET, NOW);
    expect(() => Stripe.webhooks.constructEvent(`${BODY} `, header, SECRET, 300, undefined, NOW * 1000)).toThrow();
  });

  it('computeSignature matches stripe for Buffer payloads', () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: SECRET, timestamp: NOW });
    expect(header).toContain(computeSignature(Buffer.from(BODY), SECRET, NOW));
  });
});
