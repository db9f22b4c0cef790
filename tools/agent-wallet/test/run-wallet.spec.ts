import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// The quote-api's own test harness: the real app on a test database with the simulated processor.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { antarcticaQuote, createHarness, type Harness } from '../../../apps/quote-api/test/harness';
import { DEFAULT_API, runWallet, type FetchFn } from '../src/run-wallet';

let h: Harness;
let server: Server;
let api: string;
let sent: { url: string; headers: Record<string, string> }[];

beforeAll(async () => {
  h = await createHarness();
  server = createServer(h.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
  sent = [];
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h.close();
});

/** Real fetch over loopback, recording what the wallet sent. */
const recordingFetch: FetchFn = async (url, init) => {
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
  sent.push({ url, headers });
  return fetch(url, init);
};

const wallet = (...argv: string[]) => runWallet(['--api', api, ...argv], { fetch: recordingFetch, now: h.clock.now });

async function newQuote() {
  const res = await fetch(`${api}/api/v1/quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(antarcticaQuote),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { quoteId: string; plans: { planId: string; availabilityMode: string }[] };
}

async function purchasesOf(quoteId: string) {
  return h.db.prisma.purchase.findMany({ where: { quoteId } });
}

describe('agent wallet against a running quote-api', () => {
  it('creates a quote, answers the 402 challenge with a test SPT and prints the receipt', async () => {
    const result = await wallet();

    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toMatch(/← 402 challenge [A-Za-z0-9_-]{43}/);
    expect(result.stdout).toMatch(/← 200 purchased: quote EXP-[A-Z0-9]{4}/);
    const receiptLine = /Payment-Receipt: (\{.*\})/.exec(result.stdout)?.[1];
    const paymentReceipt = JSON.parse(receiptLine!);
    expect(paymentReceipt).toMatchObject({
      status: 'success',
      method: 'stripe',
      reference: expect.stringMatching(/^pi_sim_/),
    });

    const [purchase] = await purchasesOf(paymentReceipt.externalId);
    expect(purchase).toMatchObject({ processorPaymentId: paymentReceipt.reference, channel: 'mpp' });
    // The wallet repeated the same request with the credential and the same Idempotency-Key.
    const purchaseCalls = sent.filter((s) => s.url.endsWith('/api/v1/purchase'));
    expect(purchaseCalls).toHaveLength(2);
    expect(purchaseCalls[0]!.headers['authorization']).toBeUndefined();
    expect(purchaseCalls[1]!.headers['authorization']).toMatch(/^Payment [A-Za-z0-9_-]+$/);
    expect(purchaseCalls[1]!.headers['idempotency-key']).toBe(purchaseCalls[0]!.headers['idempotency-key']);
    // The token itself is never printed.
    expect(result.stdout).not.toMatch(/spt_test_success_[A-Za-z0-9_-]/);
  });

  it('pays a given quote and plan; a second run finds it already paid and is not charged', async () => {
    const quote = await newQuote();
    const planId = quote.plans.find(
      (p) => p.availabilityMode === 'full' && p.planId !== 'meridian-expedition-standard',
    )!.planId;

    const first = await wallet(
      '--quote',
      quote.quoteId,
      '--plan',
      planId,
      '--spt',
      'spt_test_success_given_1',
      '--json',
    );
    expect(first.exitCode).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({
      outcome: 'purchased',
      quoteId: quote.quoteId,
      planId,
      receipt: { status: 'purchased' },
    });
    expect(report.paymentReceipt.reference).toBe((await purchasesOf(quote.quoteId))[0]!.processorPaymentId);

    const second = await wallet('--quote', quote.quoteId, '--plan', planId, '--json');
    expect(second.exitCode).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ outcome: 'already_paid', receipt: { status: 'already_paid' } });
    // Answered on the first call: no challenge, no credential sent.
    expect(sent.filter((s) => s.headers['authorization'])).toHaveLength(1);
    expect(await h.db.prisma.payment.count({ where: { quoteId: quote.quoteId } })).toBe(1);
  });

  it('reports a declined token as a failure (exit 1) and nothing is bought', async () => {
    const result = await wallet('--spt', 'spt_test_decline_x', '--json');

    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      outcome: 'refused',
      problem: { type: 'https://paymentauth.org/problems/verification-failed' },
    });
    expect(report.problem.detail).toMatch(/declined/i);
    expect(await purchasesOf(report.quoteId)).toHaveLength(0);

    const text = await wallet('--spt', 'spt_test_requires_action_x');
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toContain('verification-failed');
    expect(text.stdout).toContain('fresh challenge');
  });

  it('refuses a challenge that is not for the quote it asked to buy', async () => {
    const quote = await newQuote();
    const foreign = await newQuote();
    const planId = quote.plans.find((p) => p.availabilityMode === 'full')!.planId;
    // A server (or something in between) that answers with a genuine challenge for another quote.
    const swapping: FetchFn = async (url, init) => {
      const res = await recordingFetch(url, init);
      if (!url.endsWith('/api/v1/purchase') || res.status !== 402) return res;
      const other = await recordingFetch(url, { ...init, body: JSON.stringify({ quoteId: foreign.quoteId, planId }) });
      return new Response(await res.text(), {
        status: 402,
        headers: { 'www-authenticate': other.headers.get('www-authenticate')! },
      });
    };

    const result = await runWallet(['--api', api, '--quote', quote.quoteId, '--plan', planId], {
      fetch: swapping,
      now: h.clock.now,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`not for quote ${quote.quoteId}: refusing to pay`);
    expect(sent.filter((s) => s.headers['authorization'])).toHaveLength(0);
    expect(await purchasesOf(quote.quoteId)).toHaveLength(0);
    expect(await purchasesOf(foreign.quoteId)).toHaveLength(0);
  });

  it('targets QUOTE_API_URL, else QUOTE_API_PORT on localhost, as the apps do; --api wins; the target is printed first', async () => {
    const targetOf = async (argv: string[], env: Record<string, string>) => {
      const urls: string[] = [];
      const result = await runWallet(argv, {
        env,
        fetch: async (url) => {
          urls.push(url);
          throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
        },
      });
      return { first: urls[0], stdout: result.stdout, stderr: result.stderr };
    };

    const byUrl = await targetOf([], { QUOTE_API_URL: 'http://quotes.test:8080/', QUOTE_API_PORT: '3101' });
    expect(byUrl.first).toBe('http://quotes.test:8080/api/v1/quotes');
    expect(byUrl.stdout.split('\n')[0]).toBe('quote-api http://quotes.test:8080 (from QUOTE_API_URL)');
    expect(byUrl.stderr).toContain('cannot reach http://quotes.test:8080');

    const byPort = await targetOf([], { QUOTE_API_PORT: '3101' });
    expect(byPort.first).toBe('http://localhost:3101/api/v1/quotes');
    expect(byPort.stdout.split('\n')[0]).toBe('quote-api http://localhost:3101 (from QUOTE_API_PORT)');

    const byBase = await targetOf([], { PORT_BASE: '5000' });
    expect(byBase.first).toBe('http://localhost:5001/api/v1/quotes');
    expect(byBase.stdout.split('\n')[0]).toBe('quote-api http://localhost:5001 (from PORT_BASE)');
    const portOverBase = await targetOf([], { PORT_BASE: '5000', QUOTE_API_PORT: '3101' });
    expect(portOverBase.stdout.split('\n')[0]).toBe('quote-api http://localhost:3101 (from QUOTE_API_PORT)');
    const byDefault = await targetOf([], {});
    expect(byDefault.stdout.split('\n')[0]).toBe(`quote-api ${DEFAULT_API} (from default)`);

    const byFlag = await targetOf(['--api', 'http://127.0.0.1:9'], { QUOTE_API_URL: 'http://quotes.test:8080' });
    expect(byFlag.first).toBe('http://127.0.0.1:9/api/v1/quotes');
    expect(byFlag.stdout.split('\n')[0]).toBe('quote-api http://127.0.0.1:9 (from --api)');

    const bad = await runWallet([], { env: { QUOTE_API_URL: 'quotes.test' }, fetch: async () => new Response() });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('QUOTE_API_URL must be an http(s) URL');
    const badBase = await runWallet([], { env: { PORT_BASE: '70000' }, fetch: async () => new Response() });
    expect(badBase.exitCode).toBe(2);
    expect(badBase.stderr.split('\n')[0]).toMatch(/^Invalid configuration: PORT_BASE: /);
  });

  it('explains an unreachable API (exit 1) and usage errors (exit 2)', async () => {
    const down = await runWallet([], {
      fetch: async () => {
        throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:3001') });
      },
    });
    expect(down.exitCode).toBe(1);
    expect(down.stderr).toContain(`cannot reach ${DEFAULT_API}`);
    expect(down.stderr).toContain('ECONNREFUSED');

    const noFetch: FetchFn = async () => {
      throw new Error('must not be called');
    };
    for (const argv of [['--quote', 'q'], ['--nope'], ['--api', 'ftp://x'], ['--spt', 'tok_123']]) {
      const result = await runWallet(argv, { fetch: noFetch });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('Usage:');
    }
    const help = await runWallet(['--help'], { fetch: noFetch });
    expect(help).toMatchObject({ exitCode: 0, stderr: '' });
    expect(help.stdout).toContain('--spt');
    expect(help.stdout).toContain('Usage: npm run wallet -- [options]');
  });
});
