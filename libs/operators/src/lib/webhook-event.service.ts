import { randomUUID } from 'node:crypto';
import {
  addDays,
  isoDay,
  type Mode,
  type PolicyIssuedPayload,
  NO_WEBHOOK_SECRET_ERROR,
  NO_WEBHOOK_URL_ERROR,
  WEBHOOK_EVENTS_PAGE_SIZE,
} from '@expedition/contracts';
import type { Prisma } from '@expedition/db';
import { type AuditActor, decodeCursor, encodeCursor, writeAudit } from './audit';
import { conflict, invalidInput, notFound } from './operator-error';
import { type ServiceDeps, isUuidShaped, serviceContext } from './service-context';

export type WebhookEventStatusValue = 'pending' | 'delivered' | 'failed';
export const WEBHOOK_EVENT_STATUSES: readonly WebhookEventStatusValue[] = ['pending', 'delivered', 'failed'];

/**
 * The state an operator reads (docs/portal-api.md, "Webhooks"): the stored status, except that a failed event that
 * never left because no webhook URL was configured (every attempt, if any, ended with NO_WEBHOOK_URL_ERROR) is
 * `not_sent`: nothing reached or failed at the operator's endpoint, so it is not a failed delivery.
 */
export type WebhookEventStateValue = WebhookEventStatusValue | 'not_sent';
export const WEBHOOK_EVENT_STATES: readonly WebhookEventStateValue[] = [...WEBHOOK_EVENT_STATUSES, 'not_sent'];

/** Rows of a not-sent event: failed with the no-URL error, and no attempt ended otherwise. */
const NOT_SENT_WHERE = {
  status: 'failed',
  lastError: NO_WEBHOOK_URL_ERROR,
  attemptsLog: { every: { error: NO_WEBHOOK_URL_ERROR } },
} satisfies Prisma.WebhookEventWhereInput;

const stateWhere = (state: WebhookEventStateValue): Prisma.WebhookEventWhereInput =>
  state === 'not_sent'
    ? NOT_SENT_WHERE
    : state === 'failed'
      ? { status: 'failed', NOT: NOT_SENT_WHERE }
      : { status: state };

/** Counts the attempts that did not end with the no-URL error (a not-sent event has none). */
const SENT_ATTEMPTS = {
  _count: {
    select: { attemptsLog: { where: { OR: [{ error: null }, { error: { not: NO_WEBHOOK_URL_ERROR } }] } } },
  },
} satisfies Prisma.WebhookEventInclude;

/** eventId prefix of portal test events (real events are `evt_<uuid>`); the body also carries `"test": true`. */
export const TEST_EVENT_ID_PREFIX = 'evt_test_';

export interface WebhookEventSummaryView {
  id: string;
  eventId: string;
  type: string;
  status: WebhookEventStatusValue;
  /** `status`, or `not_sent` for a failed event that never left for lack of a webhook URL. */
  state: WebhookEventStateValue;
  isTest: boolean;
  mode: Mode | null;
  attemptCount: number;
  maxAttempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  lastStatusCode: number | null;
  policyNumber: string | null;
  premiumCents: number | null;
  commissionCents: number | null;
  currency: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

export interface WebhookAttemptView {
  attemptNumber: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  ok: boolean;
}

export interface WebhookEventDetailView {
  event: WebhookEventSummaryView;
  payload: Record<string, unknown>;
  attempts: WebhookAttemptView[];
}

export interface WebhookEventQuery {
  status?: WebhookEventStatusValue;
  state?: WebhookEventStateValue;
  cursor?: string;
  limit?: number;
}

type EventRow = Prisma.WebhookEventGetPayload<{ include: { attemptsLog: true } & typeof SENT_ATTEMPTS }>;

/**
 * Who reads the delivery log. The provider (portal admin) sees each attempt's recorded error in full; an operator sees
 * the status code, a timeout, or one generic connection failure, so the log cannot serve as a port scanner (a
 * refused port, an address refused by the outbound rules and an unknown host all read the same).
 */
export type DeliveryLogAudience = 'operator' | 'provider';

/** What an operator reads for any attempt that got no HTTP answer and did not time out. */
export const OPERATOR_CONNECTION_ERROR = 'could not connect to the webhook URL';

const OPERATOR_VISIBLE_ERRORS = [/^HTTP \d{3}$/, /^timeout after \d+ ms$/];
const OPERATOR_VISIBLE_TEXTS: readonly string[] = [NO_WEBHOOK_URL_ERROR, NO_WEBHOOK_SECRET_ERROR];

/** An attempt's recorded error as an operator may see it (see DeliveryLogAudience). */
export function operatorDeliveryError(error: string | null): string | null {
  if (error === null || OPERATOR_VISIBLE_TEXTS.includes(error)) return error;
  if (OPERATOR_VISIBLE_ERRORS.some((visible) => visible.test(error))) return error;
  if (error.startsWith('webhook secret cannot be decrypted')) return 'webhook secret cannot be decrypted';
  return OPERATOR_CONNECTION_ERROR;
}

const errorFor = (audience: DeliveryLogAudience) => (error: string | null) =>
  audience === 'provider' ? error : operatorDeliveryError(error);

/**
 * An operator's delivery log (its `policy.issued` webhook events and their attempts), a manual resend, and test events
 * (docs/portal-api.md, "Webhooks"). The dispatcher delivers; this service only reads and queues.
 */
export function createWebhookEventService(deps: ServiceDeps) {
  const { prisma, clock, actorOf, requireOperatorRow } = serviceContext(deps);

  async function listWebhookEvents(
    operatorId: string,
    query: WebhookEventQuery = {},
    audience: DeliveryLogAudience = 'operator',
  ): Promise<{ events: WebhookEventSummaryView[]; nextCursor: string | null }> {
    const operator = await requireOperatorRow(operatorId);
    if (query.status !== undefined && !WEBHOOK_EVENT_STATUSES.includes(query.status))
      throw invalidInput('status must be pending, delivered or failed');
    if (query.state !== undefined && !WEBHOOK_EVENT_STATES.includes(query.state))
      throw invalidInput('state must be pending, delivered, failed or not_sent');
    const limit = Math.min(Math.max(query.limit ?? WEBHOOK_EVENTS_PAGE_SIZE, 1), 100);
    const cursor = query.cursor ? decodeCursor(query.cursor) : null;
    const rows = await prisma.webhookEvent.findMany({
      where: {
        operatorId: operator.id,
        ...(query.status ? { status: query.status } : {}),
        ...(query.state ? { AND: [stateWhere(query.state)] } : {}),
        ...(cursor ? { OR: [{ createdAt: { lt: cursor.at } }, { createdAt: cursor.at, id: { lt: cursor.id } }] } : {}),
      },
      include: { attemptsLog: { orderBy: { attemptNumber: 'desc' }, take: 1 }, ...SENT_ATTEMPTS },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      events: page.map((row) => toSummary(row, audience)),
      nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
    };
  }

  /** By row id or by eventId; another operator's event is `not_found`. */
  async function findEventRow(operatorId: string, ref: string): Promise<EventRow> {
    const id = typeof ref === 'string' ? ref.trim() : '';
    const where = isUuidShaped(id)
      ? { id, operatorId }
      : id.startsWith('evt_') && id.length <= 100
        ? { eventId: id, operatorId }
        : null;
    const row = where
      ? await prisma.webhookEvent.findFirst({
          where,
          include: { attemptsLog: { orderBy: { attemptNumber: 'asc' } }, ...SENT_ATTEMPTS },
        })
      : null;
    if (!row) throw notFound(`webhook event ${id.slice(0, 100)} not found`);
    return row;
  }

  async function getWebhookEvent(
    operatorId: string,
    ref: string,
    audience: DeliveryLogAudience = 'operator',
  ): Promise<WebhookEventDetailView> {
    const row = await findEventRow(operatorId, ref);
    const shown = errorFor(audience);
    return {
      event: toSummary(row, audience),
      payload: (row.payload ?? {}) as Record<string, unknown>,
      attempts: row.attemptsLog.map((a) => ({
        attemptNumber: a.attemptNumber,
        startedAt: a.startedAt,
        durationMs: a.durationMs,
        statusCode: a.statusCode,
        error: shown(a.error),
        ok: a.error === null && a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300,
      })),
    };
  }

  /**
   * One more attempt of a delivered or failed event: the same eventId and body, status pending, due now, and
   * maxAttempts = attempts + 1 (so a resend is exactly one attempt; it is not retried if it fails). A pending event is
   * still in its schedule: `conflict`.
   */
  async function resendWebhookEvent(
    operatorId: string,
    ref: string,
    actor?: AuditActor,
    audience: DeliveryLogAudience = 'operator',
  ): Promise<WebhookEventSummaryView> {
    const row = await findEventRow(operatorId, ref);
    const operator = await requireOperatorRow(row.operatorId);
    if (!operator.webhookUrl) throw conflict('No webhook URL is configured for this operator: the provider sets it');
    if (row.status === 'pending')
      throw conflict('This event is still being delivered; resend it once it is delivered or failed');
    const now = clock.now();
    return prisma.$transaction(async (tx) => {
      const { count } = await tx.webhookEvent.updateMany({
        where: { id: row.id, status: row.status, attempts: row.attempts },
        data: { status: 'pending', maxAttempts: row.attempts + 1, nextAttemptAt: now, lockedUntil: null },
      });
      if (count !== 1) throw conflict('This event changed meanwhile; reload and try again');
      await writeAudit(
        tx,
        actorOf(actor),
        {
          operatorId: row.operatorId,
          action: 'webhook_event.resent',
          targetType: 'webhook_event',
          targetId: row.eventId,
          before: { status: row.status, attempts: row.attempts, maxAttempts: row.maxAttempts },
          after: { status: 'pending', attempts: row.attempts, maxAttempts: row.attempts + 1 },
        },
        now,
      );
      const updated = await tx.webhookEvent.findUniqueOrThrow({
        where: { id: row.id },
        include: { attemptsLog: { orderBy: { attemptNumber: 'desc' }, take: 1 }, ...SENT_ATTEMPTS },
      });
      return toSummary(updated, audience);
    });
  }

  /**
   * A sample `policy.issued` body, marked `"test": true` with an `evt_test_…` eventId, queued like a real event
   * (signed the same way, 3 attempts). No policy, purchase or commission exists for it.
   */
  async function sendTestWebhookEvent(operatorId: string, actor?: AuditActor): Promise<WebhookEventSummaryView> {
    const operator = await requireOperatorRow(operatorId);
    if (!operator.webhookUrl) throw conflict('No webhook URL is configured for this operator: the provider sets it');
    const now = clock.now();
    const payload = sampleTestPayload(operator.id, operator.commissionRateBps, now);
    return prisma.$transaction(async (tx) => {
      const created = await tx.webhookEvent.create({
        data: {
          eventId: payload.eventId,
          type: payload.type,
          operatorId: operator.id,
          payload,
          status: 'pending',
          isTest: true,
          nextAttemptAt: now,
          createdAt: now,
        },
        include: { attemptsLog: true, ...SENT_ATTEMPTS },
      });
      await writeAudit(
        tx,
        actorOf(actor),
        {
          operatorId: operator.id,
          action: 'webhook_event.test_sent',
          targetType: 'webhook_event',
          targetId: payload.eventId,
          after: { eventId: payload.eventId },
        },
        now,
      );
      return toSummary(created, 'operator');
    });
  }

  return { listWebhookEvents, getWebhookEvent, resendWebhookEvent, sendTestWebhookEvent };
}

/** The body of a test event: realistic sample values, clearly fake ids, `test: true`. */
export function sampleTestPayload(
  operatorId: string,
  commissionRateBps: number,
  now: Date,
): PolicyIssuedPayload & { test: true } {
  const premiumCents = 48_900;
  const start = addDays(isoDay(now), 60);
  const end = addDays(start, 13);
  return {
    eventId: `${TEST_EVENT_ID_PREFIX}${randomUUID()}`,
    type: 'policy.issued',
    test: true,
    createdAt: now.toISOString(),
    mode: 'test',
    operatorId,
    policyId: '00000000-0000-4000-8000-000000000000',
    policyNumber: 'POL-TEST-000000',
    quoteId: '00000000-0000-4000-8000-000000000001',
    quoteNumber: 'EXP-TEST00',
    planId: 'test-plan',
    planName: 'Sample Expedition Plan (test event)',
    destination: 'Antarctica',
    premiumCents,
    commissionCents: Math.floor((premiumCents * commissionRateBps) / 10_000),
    commissionRateBps,
    currency: 'USD',
    travelers: 2,
    startDate: start,
    endDate: end,
    issuedAt: now.toISOString(),
  };
}

function stateOf(row: EventRow): WebhookEventStateValue {
  const notSent = row.status === 'failed' && row.lastError === NO_WEBHOOK_URL_ERROR && row._count.attemptsLog === 0;
  return notSent ? 'not_sent' : row.status;
}

function toSummary(row: EventRow, audience: DeliveryLogAudience): WebhookEventSummaryView {
  const payload = (row.payload ?? {}) as Partial<PolicyIssuedPayload>;
  const lastAttempt = [...row.attemptsLog].sort((a, b) => b.attemptNumber - a.attemptNumber)[0];
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.type,
    status: row.status,
    state: stateOf(row),
    isTest: row.isTest,
    mode: payload.mode === 'test' || payload.mode === 'live' ? payload.mode : null,
    attemptCount: row.attempts,
    maxAttempts: row.maxAttempts,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
    lastError: errorFor(audience)(row.lastError),
    lastStatusCode: lastAttempt?.statusCode ?? null,
    policyNumber: typeof payload.policyNumber === 'string' ? payload.policyNumber : null,
    premiumCents: typeof payload.premiumCents === 'number' ? payload.premiumCents : null,
    commissionCents: typeof payload.commissionCents === 'number' ? payload.commissionCents : null,
    currency: typeof payload.currency === 'string' ? payload.currency : null,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
  };
}
