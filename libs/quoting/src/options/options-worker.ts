import { isUniqueViolation, NOTIFY_CHANNELS, Prisma, type Notifications, type PrismaClient } from '@expedition/db';
import { createPollingLoop, systemClock, type Clock, type Logger } from '@expedition/platform';
import { optionRowsFromEstimates } from './option-rows';

export interface OptionsWorkerOptions {
  prisma: PrismaClient;
  clock?: Clock;
  logger?: Pick<Logger, 'debug' | 'warn' | 'error'>;
  /** Quotes claimed per round. */
  batchSize?: number;
  /** How long a claim lasts; a worker that dies mid-generation releases its quotes when the lease lapses. */
  leaseMs?: number;
  /** Claims per quote before it is marked `failed` (a claim that crashed counts as an attempt). */
  maxAttempts?: number;
  /** Idle wait between rounds when there was nothing (or little) to do. */
  pollIntervalMs?: number;
  /** Delay before attempt n+1 after attempt n failed. */
  retryDelayMs?: (attempt: number) => number;
  /**
   * PostgreSQL's LISTEN/NOTIFY (Database.notifications): a pending quote inserted by any replica wakes the worker at
   * once. Without it (PGlite) the worker polls (and is kicked in-process); with it, polling stays as the safety net.
   */
  notifications?: Pick<Notifications, 'subscribe'>;
  /** Called when this worker made a quote's options ready, with seconds since the quote was created (metrics). */
  onReady?: (lagSec: number) => void;
}

export type OptionsOutcome = 'ready' | 'retry' | 'failed' | 'skipped';

export interface OptionsRunSummary {
  claimed: number;
  outcomes: Record<OptionsOutcome, number>;
  /** quoteId -> what this worker did with it (tests and logs). */
  byQuote: Map<string, OptionsOutcome>;
}

export interface OptionsWorker {
  /** Starts the polling loop (idempotent). Never called by createApp: composition roots own it. */
  start(): void;
  /** Stops polling and waits for the round in flight to finish. */
  stop(): Promise<void>;
  /** Asks a started worker to run a round now (e.g. right after a quote was created); a no-op when stopped. */
  kick(): void;
  /** One round: claim up to `batchSize` due quotes and process them. Safe to call concurrently from many workers. */
  runOnce(): Promise<OptionsRunSummary>;
}

interface Claim {
  id: string;
  attempts: number;
}

class LostRace extends Error {
  constructor() {
    super('options already produced by another worker');
  }
}

const DEFAULTS = { batchSize: 10, leaseMs: 30_000, maxAttempts: 5, pollIntervalMs: 1_000 };

/**
 * Generates bindable options for pending quotes, asynchronously, on any number of replicas.
 *
 * Claim: one statement (`UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED)`) sets a lease
 * (`options_locked_until`) and bumps `options_attempts`, so two workers never hold the same quote at once while the
 * lease runs. Produce: in ONE transaction, write the QuoteOption rows and flip `options_status` pending -> ready
 * with a conditional update; if another worker got there first (lease lapsed mid-generation), the unique
 * (quote_id, plan_id) index or the conditional flip aborts the loser's transaction, so options are never duplicated
 * and a quote becomes ready exactly once. Failures are retried after a backoff until `maxAttempts`, then `failed`.
 * Eligibility is not this worker's business: quoting's create writes a quote `pending` only when it is an
 * instant-eligible embed quote, in the same statement that stores it, so every pending quote is one to produce.
 */
export function createOptionsWorker(options: OptionsWorkerOptions): OptionsWorker {
  const { prisma } = options;
  const clock = options.clock ?? systemClock;
  const batchSize = options.batchSize ?? DEFAULTS.batchSize;
  const leaseMs = options.leaseMs ?? DEFAULTS.leaseMs;
  const maxAttempts = options.maxAttempts ?? DEFAULTS.maxAttempts;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULTS.pollIntervalMs;
  const retryDelayMs = options.retryDelayMs ?? ((attempt: number) => Math.min(60_000, 1_000 * 2 ** (attempt - 1)));
  const log = options.logger;

  async function claim(): Promise<Claim[]> {
    const now = clock.now();
    const leaseUntil = new Date(now.getTime() + leaseMs);
    // Timestamps travel as ISO text and are converted in SQL: Prisma stores DateTime as UTC `timestamp(3)`.
    return prisma.$queryRaw<Claim[]>`
      UPDATE quotes AS q
         SET options_locked_until = (${leaseUntil.toISOString()}::timestamptz AT TIME ZONE 'UTC'),
             options_attempts = q.options_attempts + 1
        FROM (SELECT id FROM quotes
               WHERE options_status = 'pending'
                 AND (options_locked_until IS NULL
                      OR options_locked_until <= (${now.toISOString()}::timestamptz AT TIME ZONE 'UTC'))
               ORDER BY created_at
               LIMIT ${batchSize}::int
               FOR UPDATE SKIP LOCKED) AS due
       WHERE q.id = due.id
   RETURNING q.id AS id, q.options_attempts AS attempts`;
  }

  async function produce(claimed: Claim): Promise<OptionsOutcome> {
    return prisma.$transaction(async (tx) => {
      const quote = await tx.quote.findUnique({
        where: { id: claimed.id },
        select: {
          id: true,
          optionsStatus: true,
          createdAt: true,
          estimates: {
            orderBy: { rank: 'asc' },
            select: { planId: true, premiumCents: true, currency: true, rank: true, isRecommended: true },
          },
        },
      });
      if (!quote || quote.optionsStatus !== 'pending') return 'skipped';
      if (claimed.attempts > maxAttempts) {
        await markFailed(tx, claimed.id, `gave up after ${maxAttempts} attempts`);
        return 'failed';
      }
      await tx.quoteOption.createMany({ data: optionRowsFromEstimates(quote.id, quote.estimates) });
      await flip(tx, claimed.id, { optionsStatus: 'ready', optionsError: null });
      options.onReady?.((clock.now().getTime() - quote.createdAt.getTime()) / 1000);
      return 'ready';
    });
  }

  async function handle(claimed: Claim): Promise<OptionsOutcome> {
    try {
      return await produce(claimed);
    } catch (err) {
      if (err instanceof LostRace || isUniqueViolation(err)) {
        log?.debug({ quoteId: claimed.id }, 'options: another worker produced them first');
        return 'skipped';
      }
      return recordFailure(claimed, err);
    }
  }

  async function recordFailure(claimed: Claim, err: unknown): Promise<OptionsOutcome> {
    const message = err instanceof Error ? err.message.slice(0, 500) : String(err);
    const giveUp = claimed.attempts >= maxAttempts;
    const retryAt = new Date(clock.now().getTime() + retryDelayMs(claimed.attempts));
    log?.[giveUp ? 'error' : 'warn'](
      { quoteId: claimed.id, attempt: claimed.attempts, err },
      'options generation failed',
    );
    try {
      await prisma.quote.updateMany({
        where: { id: claimed.id, optionsStatus: 'pending' },
        data: giveUp
          ? { optionsStatus: 'failed', optionsError: message, optionsLockedUntil: null }
          : { optionsError: message, optionsLockedUntil: retryAt },
      });
    } catch (updateErr) {
      // The lease still expires on its own; the next claim retries.
      log?.warn({ quoteId: claimed.id, err: updateErr }, 'options: could not record the failure');
    }
    return giveUp ? 'failed' : 'retry';
  }

  async function runOnce(): Promise<OptionsRunSummary> {
    const claims = await claim();
    const summary: OptionsRunSummary = {
      claimed: claims.length,
      outcomes: { ready: 0, retry: 0, failed: 0, skipped: 0 },
      byQuote: new Map(),
    };
    for (const claimed of claims) {
      const outcome = await handle({ id: claimed.id, attempts: Number(claimed.attempts) });
      summary.outcomes[outcome] += 1;
      summary.byQuote.set(claimed.id, outcome);
    }
    if (claims.length > 0) log?.debug({ ...summary.outcomes, claimed: claims.length }, 'options round');
    return summary;
  }

  const loop = createPollingLoop(async () => ({ backlog: (await runOnce()).claimed >= batchSize }), {
    pollIntervalMs,
    onError: (err) => log?.warn({ err }, 'options worker: round failed (database unavailable?)'),
  });
  let unsubscribe: (() => void) | null = null;
  return {
    runOnce,
    start() {
      loop.start();
      unsubscribe ??= options.notifications?.subscribe(NOTIFY_CHANNELS.quoteOptions, loop.kick) ?? null;
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = null;
      await loop.stop();
    },
    kick: loop.kick,
  };
}

type Tx = Prisma.TransactionClient;

async function flip(tx: Tx, quoteId: string, data: Prisma.QuoteUpdateManyMutationInput): Promise<void> {
  const { count } = await tx.quote.updateMany({
    where: { id: quoteId, optionsStatus: 'pending' },
    data: { ...data, optionsLockedUntil: null },
  });
  if (count !== 1) throw new LostRace();
}

async function markFailed(tx: Tx, quoteId: string, message: string): Promise<void> {
  await flip(tx, quoteId, { optionsStatus: 'failed', optionsError: message });
}
