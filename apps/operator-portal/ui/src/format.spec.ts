import {
  formatBps,
  formatDate,
  formatPercent,
  formatRelative,
  keyState,
  localInputToIso,
  parseBps,
  shortKey,
} from './format';
import { niceMax, polylinePoints, seriesOf } from './pages/chart';
import { compact, describeAction, describeChange } from './pages/audit-page';
import { describeSchedule } from './pages/webhooks-page';
import { fieldErrors } from './pages/auth-form';
import { ApiError } from './api/client';

describe('formatting', () => {
  it('writes basis points as percentages without float noise', () => {
    expect(formatBps(1000)).toBe('10%');
    expect(formatBps(1250)).toBe('12.5%');
    expect(formatBps(5)).toBe('0.05%');
    expect(formatBps(10_000)).toBe('100%');
    expect(formatBps(0)).toBe('0%');
    expect(formatBps(333)).toBe('3.33%');
  });

  it('parses basis points 0..10000 only as whole numbers', () => {
    expect(parseBps(' 1500 ')).toBe(1500);
    expect(parseBps('10000')).toBe(10_000);
    expect(parseBps('10001')).toBeNull();
    expect(parseBps('12.5')).toBeNull();
    expect(parseBps('-1')).toBeNull();
    expect(parseBps('')).toBeNull();
  });

  it('derives a key state: revoked, expired, expiring (rotation grace) or active', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(keyState({ revokedAt: '2026-11-01T00:00:00Z', expiresAt: '2026-12-01T00:00:00Z' }, now)).toBe('revoked');
    expect(keyState({ expiresAt: '2026-11-23T11:59:59Z' }, now)).toBe('expired');
    expect(keyState({ expiresAt: '2026-11-24T12:00:00Z' }, now)).toBe('expiring');
    expect(keyState({}, now)).toBe('active');
    expect(keyState({ state: 'revoked' }, now)).toBe('revoked');
  });

  it('shortens keys around the prefix', () => {
    expect(shortKey(`pk_op_test_${'a'.repeat(20)}${'b'.repeat(28)}`)).toBe('pk_op_test_aaaaaa…bbbbbb');
    expect(shortKey(`pk_op_${'0123456789abcdef'.repeat(3)}`)).toBe('pk_op_012345…abcdef');
    expect(shortKey('pk_op_short')).toBe('pk_op_short');
  });

  it('formats relative times, percentages, days and local dates', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(formatRelative(null, now)).toBe('never');
    expect(formatRelative('2026-11-23T09:00:00Z', now, 'en')).toBe('3 hours ago');
    expect(formatRelative('2026-11-30T12:00:00Z', now, 'en')).toBe('in 7 days');
    expect(formatPercent(0.1234)).toBe('12.3%');
    expect(formatPercent(null)).toBe('—');
    expect(formatDate('2026-11-23', 'en-US')).toBe('Nov 23, 2026');
    expect(localInputToIso('')).toBeNull();
    expect(localInputToIso('2026-12-01T09:30')).toMatch(/^2026-12-0[12]T\d\d:30:00\.000Z$/);
  });

  it('describes the webhook retry schedule', () => {
    expect(describeSchedule([60, 600])).toBe('after 1 minute, then 10 minutes');
    expect(describeSchedule([30, 3600])).toBe('after 30 seconds, then 1 hour');
    expect(describeSchedule([])).toBe('');
  });

  it('describes audit entries as one "field: before → after" line per changed field', () => {
    expect(describeAction('publishable_key.rotated')).toBe('Publishable key rotated');
    expect(describeChange({ commissionRateBps: 1000, name: 'A' }, { commissionRateBps: 1500, name: 'A' })).toEqual([
      'commissionRateBps: 1000 → 1500',
    ]);
    expect(
      describeChange({ webhookUrl: null, secretSet: false }, { webhookUrl: 'https://h.example/wh', secretSet: true }),
    ).toEqual(['webhookUrl: none → https://h.example/wh', 'secretSet: false → true']);
    expect(describeChange(null, null)).toEqual([]);
  });

  it('writes created and removed fields and nested values without raw JSON', () => {
    expect(describeChange(null, { origin: 'https://a.example', appliesTo: ['test', 'live'] })).toEqual([
      'origin: https://a.example',
      'appliesTo: test, live',
    ]);
    expect(describeChange({ origin: 'https://a.example' }, null)).toEqual(['origin: https://a.example → —']);
    expect(describeChange({ limits: { max: 3 } }, { limits: { max: 4, min: 1 } })).toEqual([
      'limits: { max: 3 } → { max: 4, min: 1 }',
    ]);
    expect(describeChange('a', 'b')).toEqual(['a → b']);
    expect(compact([])).toBe('none');
  });

  it('maps 400 details and weak_password to field errors', () => {
    expect(
      fieldErrors(
        new ApiError(400, 'invalid_request', 'Invalid', [{ path: 'email', message: 'must be an e-mail address' }]),
      ),
    ).toEqual({ email: 'must be an e-mail address' });
    expect(fieldErrors(new ApiError(400, 'weak_password', 'this password is too common; choose another'))).toEqual({
      password: 'this password is too common; choose another',
    });
    expect(fieldErrors(new Error('x'))).toEqual({});
  });
});

describe('dashboard chart', () => {
  const days = [
    { day: '2026-11-21', mode: 'test' as const, quotes: 3, purchases: 1, premiumCents: 10_000, commissionCents: 1000 },
    { day: '2026-11-21', mode: 'live' as const, quotes: 1, purchases: 0, premiumCents: 0, commissionCents: 0 },
    { day: '2026-11-22', mode: 'test' as const, quotes: 0, purchases: 0, premiumCents: 0, commissionCents: 0 },
    { day: '2026-11-23', mode: 'live' as const, quotes: 7, purchases: 2, premiumCents: 25_000, commissionCents: 2500 },
  ];

  it('splits a metric by day and mode, oldest first, zero-filled', () => {
    expect(seriesOf(days, 'quotes')).toEqual({
      labels: ['2026-11-21', '2026-11-22', '2026-11-23'],
      test: [3, 0, 0],
      live: [1, 0, 7],
    });
    expect(seriesOf(days, 'commissionCents').live).toEqual([0, 0, 2500]);
  });

  it('rounds the axis up to 1, 2 or 5 × 10^n', () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(7)).toBe(10);
    expect(niceMax(13)).toBe(20);
    expect(niceMax(41)).toBe(50);
    expect(niceMax(25_000)).toBe(50_000);
    expect(niceMax(100)).toBe(100);
  });

  it('places points left to right, top = max', () => {
    expect(polylinePoints([0, 5, 10], 10, 100, 50)).toBe('0,50 50,25 100,0');
    expect(polylinePoints([4], 10, 100, 50)).toBe('50,30');
    expect(polylinePoints([], 10, 100, 50)).toBe('');
  });
});
