import { canResend, describeEventState } from './webhook-log';

describe('webhook event state in words', () => {
  it('not_sent reads "not sent" in a neutral badge, never failed or red', () => {
    expect(describeEventState({ state: 'not_sent' })).toEqual({ label: 'not sent', tone: 'neutral' });
    expect(describeEventState({ state: 'failed' })).toEqual({ label: 'failed', tone: 'danger' });
    expect(describeEventState({ state: 'delivered' })).toEqual({ label: 'delivered', tone: 'success' });
    expect(describeEventState({ state: 'pending' })).toEqual({ label: 'pending', tone: 'warning' });
  });

  it('shows an unknown future state as it is', () => {
    expect(describeEventState({ state: 'on_hold' as never })).toEqual({ label: 'on hold', tone: 'neutral' });
  });

  it('offers resend for delivered, failed and not-sent events, never while pending or without a webhook URL', () => {
    expect(canResend({ state: 'not_sent' }, false)).toBe(true);
    expect(canResend({ state: 'failed' }, false)).toBe(true);
    expect(canResend({ state: 'delivered' }, false)).toBe(true);
    expect(canResend({ state: 'pending' }, false)).toBe(false);
    expect(canResend({ state: 'not_sent' }, true)).toBe(false);
    expect(canResend({ state: 'failed' }, true)).toBe(false);
  });
});
