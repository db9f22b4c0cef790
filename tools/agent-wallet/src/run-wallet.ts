import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { addDays, formatMoney, isoDay } from '@expedition/contracts/rules';
import { z } from 'zod';
import { envVar, parseConfig, resolveUrl } from '@expedition/platform';
import {
  decodeRequest,
  formatAuthorizationPayment,
  isChallengeExpired,
  parsePaymentChallenges,
  parsePaymentReceipt,
  type PaymentChallenge,
} from '@expedition/payments';

/**
 * An agent's wallet for MPP's "Payment" scheme (notes A), against a running quote-api: ask to buy, read the 402
 * challenge, check it is for what we asked, answer it with a Shared Payment Token, and show the receipt. The whole
 * tool is this function (argv + fetch in, exit code + output out); main.ts only wires it to the process.
 */

export type FetchFn = (url: string, init?: RequestInit) => Promise<Response>;

export interface WalletDeps {
  fetch: FetchFn;
  /** Departure dates of the sample quote are relative to it; also used to refuse an expired challenge. */
  now?: () => Date;
  /** Default Idempotency-Key and SPT suffix. */
  randomId?: () => string;
  /** QUOTE_API_URL, else QUOTE_API_PORT / PORT_BASE on localhost, pick the default target, as in the apps (main.ts passes process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface WalletResult {
  /** 0 purchased or already paid, 1 refused or failed, 2 usage error. */
  exitCode: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

export const DEFAULT_API = 'http://localhost:3001';

/** The variables the apps read for quote-api's URL (QUOTE_API_URL is checked below, with the --api value). */
const WalletEnvSchema = z.object({
  PORT_BASE: envVar.portBase(),
  QUOTE_API_PORT: envVar.servicePort(),
  QUOTE_API_URL: envVar.string(),
});

/**
 * The quote-api the apps would use (libs/platform service-ports.ts): QUOTE_API_URL, else http://localhost:QUOTE_API_PORT,
 * else http://localhost:PORT_BASE+1, else DEFAULT_API. A bad PORT_BASE or QUOTE_API_PORT throws ConfigError.
 */
export function defaultApi(env: Readonly<Record<string, string | undefined>>): { url: string; source: string } {
  const parsed = parseConfig(WalletEnvSchema, env);
  const source = parsed.QUOTE_API_URL
    ? 'QUOTE_API_URL'
    : parsed.QUOTE_API_PORT !== undefined
      ? 'QUOTE_API_PORT'
      : env['PORT_BASE']?.trim()
        ? 'PORT_BASE'
        : 'default';
  return { url: resolveUrl('quoteApi', parsed), source };
}
const PROGRAM = 'npm run wallet --';

export const HELP = `Pays for a travel-insurance quote the way an agent's wallet would (MPP, method stripe, intent charge).

Usage: ${PROGRAM} [options]

  --api <url>              quote-api base URL (default: QUOTE_API_URL, else http://localhost:QUOTE_API_PORT,
                           else http://localhost:<PORT_BASE + 1>, else ${DEFAULT_API})
  --quote <id> --plan <id> buy this quote's plan (default: create a sample Antarctica quote, take its
                           recommended plan, or --plan if given)
  --spt <token>            Shared Payment Token to pay with (default spt_test_success_<random>);
                           spt_test_decline_x, spt_test_insufficient_x, spt_test_requires_action_x fail
  --idempotency-key <key>  sent on both calls (default: random)
  --json                   print one JSON document instead of text
  -h, --help               this help

Exit code: 0 purchased or already paid, 1 refused or failed, 2 usage error.
`;

class UsageError extends Error {}
class WalletError extends Error {}

interface Options {
  api: string;
  /** Where api came from: --api, QUOTE_API_URL, QUOTE_API_PORT, PORT_BASE or default. */
  apiSource: string;
  quoteId?: string;
  planId?: string;
  spt: string;
  idempotencyKey: string;
  json: boolean;
}

interface Report {
  outcome: 'purchased' | 'already_paid' | 'refused';
  quoteId: string;
  planId: string;
  challenge?: { id: string; amount: string; currency: string; externalId?: string; expires?: string };
  receipt?: unknown;
  paymentReceipt?: unknown;
  problem?: unknown;
}

export async function runWallet(argv: readonly string[], deps: WalletDeps): Promise<WalletResult> {
  const now = deps.now ?? (() => new Date());
  const randomId = deps.randomId ?? (() => randomBytes(9).toString('base64url'));
  let options: Options | 'help';
  try {
    options = parseOptions(argv, randomId, deps.env ?? {});
  } catch (error) {
    return { exitCode: 2, stdout: '', stderr: `${(error as Error).message}\n\n${HELP}` };
  }
  if (options === 'help') return { exitCode: 0, stdout: HELP, stderr: '' };

  const lines: string[] = [];
  const say = (line: string) => lines.push(line);
  const api = options.api;
  say(`quote-api ${api} (from ${options.apiSource})`);
  // A network failure is the usual problem with a local tool: say which URL did not answer.
  const fetchOrExplain: FetchFn = (url, init) =>
    deps.fetch(url, init).catch((error: unknown) => {
      throw new WalletError(`cannot reach ${api}: ${describeError(error)}`);
    });
  try {
    const report = await pay(options, { fetch: fetchOrExplain, now, say });
    const stdout = options.json ? `${JSON.stringify({ api, ...report }, null, 2)}\n` : `${lines.join('\n')}\n`;
    return { exitCode: report.outcome === 'refused' ? 1 : 0, stdout, stderr: '' };
  } catch (error) {
    const message = error instanceof WalletError ? error.message : describeError(error);
    return {
      exitCode: 1,
      stdout: options.json ? '' : lines.map((l) => `${l}\n`).join(''),
      stderr: `error: ${message}\n`,
    };
  }
}

function parseOptions(
  argv: readonly string[],
  randomId: () => string,
  env: Readonly<Record<string, string | undefined>>,
): Options | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        api: { type: 'string' },
        quote: { type: 'string' },
        plan: { type: 'string' },
        spt: { type: 'string' },
        'idempotency-key': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  if (v.quote !== undefined && v.plan === undefined)
    throw new UsageError('--quote needs --plan (the quote-api has no quote lookup)');
  let target: { url: string; source: string };
  try {
    target = v.api !== undefined ? { url: v.api, source: '--api' } : defaultApi(env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const api = target.url.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(api)) throw new UsageError(`${target.source} must be an http(s) URL, got "${api}"`);
  const spt = v.spt ?? `spt_test_success_${randomId()}`;
  if (!spt.startsWith('spt_')) throw new UsageError('--spt must be a Shared Payment Token (spt_…)');
  return {
    api,
    apiSource: target.source,
    spt,
    json: v.json ?? false,
    idempotencyKey: v['idempotency-key'] ?? `wallet-${randomUUID()}`,
    ...(v.quote !== undefined ? { quoteId: v.quote } : {}),
    ...(v.plan !== undefined ? { planId: v.plan } : {}),
  };
}

interface Io {
  fetch: FetchFn;
  now: () => Date;
  say: (line: string) => void;
}

async function pay(options: Options, io: Io): Promise<Report> {
  const given = options.quoteId && options.planId ? { quoteId: options.quoteId, planId: options.planId } : undefined;
  const { quoteId, planId } = given ?? (await createSampleQuote(options, io));
  const body = JSON.stringify({ quoteId, planId });
  const post = (headers: Record<string, string>) =>
    io.fetch(`${options.api}/api/v1/purchase`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': options.idempotencyKey, ...headers },
      body,
    });

  io.say(`POST /api/v1/purchase  quote ${quoteId}, plan ${planId}`);
  const first = await post({});
  if (first.status === 200) return done(first, { quoteId, planId }, io);
  if (first.status !== 402)
    throw new WalletError(`expected 402 Payment Required, got ${first.status}: ${await first.text()}`);

  const challenge = pickChallenge(first.headers.get('www-authenticate'));
  const request = checkChallenge(challenge, quoteId, io.now());
  io.say(`← 402 challenge ${challenge.id}`);
  io.say(
    `  realm ${challenge.realm}, ${challenge.method}/${challenge.intent}, expires ${challenge.expires ?? 'never'}`,
  );
  io.say(
    `  amount ${request.amount} ${request.currency} (minor units) = ${formatMoney(Number(request.amount), request.currency, 'en-US')}, externalId ${request.externalId}`,
  );
  io.say(
    `  network ${request.methodDetails.networkId}, methods ${request.methodDetails.paymentMethodTypes.join(', ')}`,
  );

  // The SPT is a bearer credential: show only which kind of test token this is.
  io.say(
    `→ retry with Authorization: Payment (spt ${maskSpt(options.spt)}), Idempotency-Key ${options.idempotencyKey}`,
  );
  const second = await post({
    authorization: formatAuthorizationPayment({ challenge, payload: { spt: options.spt } }),
  });
  const summary = {
    quoteId,
    planId,
    challenge: {
      id: challenge.id,
      amount: request.amount,
      currency: request.currency,
      externalId: request.externalId,
      expires: challenge.expires,
    },
  };
  if (second.status === 200) return done(second, summary, io);

  const text = await second.text();
  const problem = parseJson(text) as { type?: string; detail?: string } | undefined;
  if (second.status !== 402 && !problem?.type)
    throw new WalletError(`payment retry answered ${second.status}: ${text}`);
  io.say(`← ${second.status} ${problem?.type ?? ''}`);
  if (problem?.detail) io.say(`  ${problem.detail}`);
  if (second.headers.get('www-authenticate'))
    io.say('  (the server offered a fresh challenge: run again with another token)');
  return { outcome: 'refused', ...summary, problem: problem ?? text };
}

async function createSampleQuote(options: Options, io: Io): Promise<{ quoteId: string; planId: string }> {
  const departure = addDays(isoDay(io.now()), 60);
  const quoteBody = {
    destination: 'Antarctica',
    startDate: departure,
    durationDays: 14,
    tripCost: 24000,
    travelers: 2,
    travelerAges: [45, 52],
    residence: 'GB',
  };
  io.say(`POST /api/v1/quotes  Antarctica, 2 travelers, departing ${departure}`);
  const res = await io.fetch(`${options.api}/api/v1/quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(quoteBody),
  });
  const text = await res.text();
  if (res.status !== 200) throw new WalletError(`creating the quote failed with ${res.status}: ${text}`);
  const quote = parseJson(text) as
    | {
        quoteId: string;
        quoteNumber: string;
        recommendedPlanId?: string | null;
        plans: { planId: string; availabilityMode: string }[];
      }
    | undefined;
  if (!quote?.quoteId || !Array.isArray(quote.plans)) throw new WalletError(`unexpected quote response: ${text}`);
  const buyable = quote.plans.filter((p) => p.availabilityMode === 'full' || p.availabilityMode === 'deposit');
  const planId =
    options.planId ?? buyable.find((p) => p.planId === quote.recommendedPlanId)?.planId ?? buyable[0]?.planId;
  if (!planId) throw new WalletError(`quote ${quote.quoteNumber} has no plan that can be bought online`);
  io.say(`← quote ${quote.quoteNumber} (${quote.quoteId})`);
  return { quoteId: quote.quoteId, planId };
}

function pickChallenge(header: string | null): PaymentChallenge {
  if (!header) throw new WalletError('402 without a WWW-Authenticate header');
  const challenge = parsePaymentChallenges(header).find((c) => c.method === 'stripe' && c.intent === 'charge');
  if (!challenge) throw new WalletError(`no Payment challenge with method "stripe" and intent "charge" in: ${header}`);
  return challenge;
}

/** A wallet pays only for what it asked for: the quote in externalId, a challenge that has not expired. */
function checkChallenge(challenge: PaymentChallenge, quoteId: string, now: Date) {
  let request;
  try {
    request = decodeRequest(challenge.request);
  } catch (error) {
    throw new WalletError(`the challenge's request cannot be decoded: ${describeError(error)}`);
  }
  if (request.externalId !== quoteId) {
    throw new WalletError(`the challenge is for "${request.externalId}", not for quote ${quoteId}: refusing to pay`);
  }
  if (isChallengeExpired(challenge, now)) throw new WalletError(`the challenge expired at ${challenge.expires}`);
  return request;
}

async function done(res: Response, summary: Omit<Report, 'outcome'>, io: Io): Promise<Report> {
  const text = await res.text();
  const receipt = parseJson(text) as
    | {
        status?: string;
        quoteNumber?: string;
        planName?: string;
        amountCharged?: number;
        currency?: string;
        nextSteps?: string;
      }
    | undefined;
  const header = res.headers.get('payment-receipt');
  const paymentReceipt = header ? parsePaymentReceipt(header) : undefined;
  if (!receipt || (receipt.status !== 'purchased' && receipt.status !== 'already_paid')) {
    throw new WalletError(`unexpected 200 body: ${text}`);
  }
  io.say(
    `← 200 ${receipt.status}: quote ${receipt.quoteNumber}, ${receipt.planName}, ${receipt.amountCharged} ${receipt.currency}`,
  );
  io.say(`  ${receipt.nextSteps ?? ''}`);
  io.say(`  receipt: ${JSON.stringify(receipt)}`);
  io.say(
    `  Payment-Receipt: ${paymentReceipt ? JSON.stringify(paymentReceipt) : header ? `(undecodable) ${header}` : '(none)'}`,
  );
  return { outcome: receipt.status, ...summary, receipt, ...(paymentReceipt ? { paymentReceipt } : {}) };
}

function maskSpt(spt: string): string {
  const kind = /^spt_test_(success|decline|insufficient|requires_action)/.exec(spt)?.[0];
  return `${kind ?? spt.slice(0, 8)}…`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
