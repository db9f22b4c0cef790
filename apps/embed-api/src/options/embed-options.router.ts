import type { IRouter, RequestHandler } from 'express';
import { EMBED_QUOTE_ID_REQUIRED, type EmbedOptionsPending } from '@expedition/contracts';
import { getEmbedContext, sendBareForbidden } from '@expedition/auth-publishable-key';
import type { PrismaClient } from '@expedition/db';
import { sendJson } from '@expedition/http-kit';
import { isUuid } from '@expedition/platform';
import { keepsOptionsPending, toEmbedOptionsReady } from '@expedition/quoting';
import { sendEmbedError } from '../http/embed-responses';
import { EMBED_OPTIONS_PATH } from '../limits';
import type { ReadyOptionsCache } from './ready-options-cache';

const PENDING: EmbedOptionsPending = { options: [], pending: true };
const PENDING_BODY = Buffer.from(JSON.stringify(PENDING));

/**
 * Looked up in place of a malformed id, so a malformed id costs the same database round trip as an unknown one
 * (no timing oracle). Shaped like a v4 UUID; Prisma's random v4 ids will not produce it in practice.
 */
export const PLACEHOLDER_QUOTE_ID = '00000000-0000-4000-8000-000000000000';

/**
 * GET /api/embed/options (docs/contract.md "GET /api/embed/options").
 * - `quoteId` missing or blank → 400 `{ "error": "quoteId required" }` (CORS on).
 * - Unknown id, malformed id (not a UUID, repeated parameter) or a quote of another operator → the gate's bare 403
 *   `Forbidden` without CORS headers. All three run the same single-row lookup, answer through the same function
 *   and so carry the same status, body and headers.
 * - Same operator, any key mode: a test key may read a quote created with the operator's live key and vice versa
 *   (the quote id is the operator's own; the payment path uses the QUOTE's mode, never the polling key's).
 * - `pending`, `not_eligible` and `failed` → 200 `{ options: [], pending: true }`; `ready` → 200 EmbedOptionsReady
 *   (no `pending` field). Sandbox: a TEST quote whose email is `options-pending@sandbox.test` is always pending.
 */
export function addEmbedOptionsRoute(
  app: IRouter,
  deps: { gate: RequestHandler; prisma: PrismaClient; cache: ReadyOptionsCache; quoteApiUrl?: string },
): void {
  app.get(EMBED_OPTIONS_PATH, deps.gate, async (req, res) => {
    const { operatorId } = getEmbedContext(req);
    const presented = readQuoteId(req.query['quoteId']);
    if (presented === 'missing') return sendEmbedError(res, EMBED_QUOTE_ID_REQUIRED);

    const quoteId = presented === 'malformed' ? null : presented;
    const cached = quoteId ? deps.cache.get(quoteId) : undefined;
    if (cached && cached.operatorId === operatorId) return sendJson(res, cached.body);

    const quote = await deps.prisma.quote.findUnique({
      where: { id: quoteId ?? PLACEHOLDER_QUOTE_ID },
      select: {
        id: true,
        quoteNumber: true,
        operatorId: true,
        optionsStatus: true,
        currency: true,
        recommendedPlanId: true,
        email: true,
        mode: true,
        // The traveler's language, recorded at creation: the options' highlights are written in it (issue 22).
        locale: true,
      },
    });
    if (!quoteId || !quote || quote.operatorId !== operatorId) return sendBareForbidden(res);
    // Sandbox: a test quote with the "options pending" email stays pending (never cached, so it never turns ready).
    if (quote.optionsStatus !== 'ready' || keepsOptionsPending(quote)) return sendJson(res, PENDING_BODY);

    const options = await deps.prisma.quoteOption.findMany({
      where: { quoteId: quote.id },
      orderBy: { rank: 'asc' },
      select: {
        planId: true,
        premiumCents: true,
        currency: true,
        isRecommended: true,
        coverage: true,
        createdAt: true,
      },
    });
    const body = Buffer.from(JSON.stringify(toEmbedOptionsReady(quote, options, { quoteApiUrl: deps.quoteApiUrl })));
    deps.cache.set(quote.id, { operatorId, body });
    sendJson(res, body);
  });
}

/** The `quoteId` parameter as parsed from the query string (a string, or an array when repeated). */
export function readQuoteId(raw: unknown): string | 'missing' | 'malformed' {
  if (raw === undefined) return 'missing';
  if (typeof raw !== 'string') return 'malformed';
  const trimmed = raw.trim();
  if (trimmed === '') return 'missing';
  return isUuid(trimmed) ? trimmed : 'malformed';
}
