import type { EmbedOptionsReady } from '@expedition/contracts';
import { EmbedError, type OptionsAnswer } from './api';
import { DEFAULT_POLL_POLICY, nextDelay, pollOptions } from './polling';

const READY = {
  quoteId: 'q',
  quoteNumber: 'EXP-AB23',
  currency: 'USD',
  recommendedPlanId: null,
  options: [],
  generatedAt: '2026-11-23T10:00:00Z',
} as EmbedOptionsReady;

/** A fake clock: sleep advances it and records the waits. */
function harness(answers: (OptionsAnswer | EmbedError | Error)[]) {
  let now = 0;
  const waits: number[] = [];
  let calls = 0;
  return {
    waits,
    calls: () => calls,
    deps: {
      now: () => now,
      sleep: async (ms: number) => {
        waits.push(ms);
        now += ms;
      },
      fetchOptions: async () => {
        const next = answers[Math.min(calls++, answers.length - 1)]!;
        if (next instanceof Error) throw next;
        return next;
      },
    },
  };
}
const pending: OptionsAnswer = { pending: true };
const ready: OptionsAnswer = { pending: false, ready: READY };

describe('options polling', () => {
  it('backs off from 0.5 s doubling to 5 s', () => {
    const delays: number[] = [];
    let d = 0;
    for (let i = 0; i < 7; i++) delays.push((d = nextDelay(d)));
    expect(delays).toEqual([500, 1000, 2000, 4000, 5000, 5000, 5000]);
  });

  it('returns the ready payload after pending answers, waiting the backoff between polls', async () => {
    const h = harness([pending, pending, pending, ready]);
    await expect(pollOptions(h.deps)).resolves.toBe(READY);
    expect(h.waits).toEqual([500, 1000, 2000]);
  });

  it('waits Retry-After seconds on 429 and keeps going', async () => {
    const h = harness([pending, new EmbedError('rate_limited', 'slow down', 429, 7), ready]);
    await expect(pollOptions(h.deps)).resolves.toBe(READY);
    expect(h.waits).toEqual([500, 7000]);
  });

  it('stops with options_timeout at the deadline, spending a bounded number of requests of the shared budget', async () => {
    const h = harness([pending]);
    await expect(pollOptions(h.deps)).rejects.toMatchObject({ code: 'options_timeout' });
    expect(h.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(DEFAULT_POLL_POLICY.timeoutMs);
    expect(h.calls()).toBeLessThanOrEqual(16);
  });

  it('waits 10 s on a 429 whose Retry-After it cannot read (not exposed by CORS)', async () => {
    const h = harness([new EmbedError('rate_limited', 'slow down', 429), ready]);
    await expect(pollOptions(h.deps)).resolves.toBe(READY);
    expect(h.waits).toEqual([10_000]);
  });

  it('gives up at once when Retry-After reaches past the deadline', async () => {
    const h = harness([new EmbedError('rate_limited', 'slow down', 429, 120)]);
    await expect(pollOptions(h.deps)).rejects.toMatchObject({ code: 'options_timeout' });
    expect(h.waits).toEqual([]);
  });

  it('tolerates a short run of network errors, then reports network', async () => {
    const net = () => new EmbedError('network', 'offline');
    const h = harness([net(), net(), ready]);
    await expect(pollOptions(h.deps)).resolves.toBe(READY);
    const h2 = harness([net(), net(), net(), net()]);
    await expect(pollOptions(h2.deps)).rejects.toMatchObject({ code: 'network' });
    expect(h2.calls()).toBe(4);
  });

  it('reports a refusal (403 of another operator’s quote) at once', async () => {
    const h = harness([new EmbedError('origin_forbidden', 'no', 403)]);
    await expect(pollOptions(h.deps)).rejects.toMatchObject({ code: 'origin_forbidden' });
    expect(h.calls()).toBe(1);
  });

  it('resolves undefined when cancelled (a newer quote took over)', async () => {
    let cancelled = false;
    const h = harness([pending, ready]);
    const result = pollOptions({ ...h.deps, isCancelled: () => cancelled, sleep: async () => void (cancelled = true) });
    await expect(result).resolves.toBeUndefined();
  });
});
