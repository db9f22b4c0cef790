import type { AcpMessage, AcpSessionStatus } from '@expedition/contracts';
import type { AgentKey } from '@expedition/db';
import { getPlan } from '@expedition/domain-pricing';
import { AppError } from '@expedition/http-kit';
import type { Metrics } from '@expedition/observability';
import type { Clock } from '@expedition/platform';
import type { ApiQuoteService } from '../quotes/api-quote.service';
import { jsonPath } from './acp-errors';
import { acpError, paidElsewhere } from './acp-messages';
import type { AcpBuyer, QuoteWithEstimates } from './acp-session.mapper';

interface SessionEvaluation {
  status: AcpSessionStatus;
  quoteId: string | null;
  messages: AcpMessage[];
}

/** What the session holds: the trip (metadata.trip), the chosen plan (line item), the buyer, its current quote. */
interface SessionFacts {
  trip: unknown;
  planId: string | null;
  buyer: AcpBuyer | null;
  quoteId: string | null;
  /** Quote anew: the trip or the buyer's email changed (or the session has no quote yet). */
  requote: boolean;
  locale: string;
}

/**
 * Whether a session is ready for payment. Every change of the trip or the buyer's email makes a new quote through
 * the same use case as POST /api/v1/quotes (in the agent key's mode and the session's language).
 */
export function createSessionEvaluator(deps: {
  quotes: ApiQuoteService;
  clock: Clock;
  loadQuote: (id: string) => Promise<QuoteWithEstimates | null>;
  /** Counts the quotes sessions create (source `acp`); absent: not counted. */
  metrics?: Pick<Metrics, 'quoteCreated'>;
}) {
  /** Re-quotes when asked (trip or email changed) and says what still stands between the session and payment. */
  return async function evaluate(key: AgentKey, s: SessionFacts): Promise<SessionEvaluation> {
    const messages: AcpMessage[] = [];
    let quoteId = s.quoteId;
    if (s.trip === undefined || s.trip === null) {
      quoteId = null;
      messages.push(
        acpError(
          'missing',
          '$.metadata.trip',
          'Send the trip facts in metadata.trip: destination, startDate, durationDays, tripCost, travelers, travelerAges, residence (and state for US residents).',
        ),
      );
    } else if (s.requote || !quoteId) {
      quoteId = null;
      if (typeof s.trip !== 'object' || Array.isArray(s.trip)) {
        messages.push(acpError('invalid', '$.metadata.trip', 'metadata.trip must be an object of trip facts'));
      } else {
        try {
          const quoted = await deps.quotes.create(
            { ...(s.trip as object), currency: 'USD', email: s.buyer?.email },
            { locale: s.locale, mode: key.mode },
          );
          quoteId = quoted.quoteId;
          deps.metrics?.quoteCreated('acp');
        } catch (err) {
          if (!(err instanceof AppError) || err.status >= 500) throw err;
          const details = err.details?.length
            ? err.details
            : [{ path: err.code === 'unknown_destination' ? 'destination' : '', message: err.message }];
          for (const d of details.slice(0, 10)) {
            const param = d.path === 'email' ? '$.buyer.email' : jsonPath('$.metadata.trip', d.path);
            messages.push(acpError('invalid', param, d.path ? `${d.path} ${d.message}` : d.message));
          }
        }
      }
    }
    const quote = quoteId ? await deps.loadQuote(quoteId) : null;
    if (!s.planId) {
      messages.push(acpError('missing', '$.line_items', 'Send one line item whose id is a planId of the quote.'));
    } else if (quote) {
      const estimate = quote.estimates.find((e) => e.planId === s.planId);
      if (!estimate) {
        messages.push(
          acpError(
            'invalid',
            '$.line_items[0].id',
            `Plan "${s.planId}" is not offered for this trip; use one of: ${quote.estimates.map((e) => e.planId).join(', ')}`,
          ),
        );
      } else if (getPlan(s.planId)?.availabilityMode === 'inquiry') {
        messages.push(
          acpError(
            'unsupported',
            '$.line_items[0].id',
            'This plan is priced on inquiry and cannot be bought online; choose another plan.',
          ),
        );
      }
    }
    if (!s.buyer)
      messages.push(
        acpError(
          'missing',
          '$.buyer.email',
          "The buyer's email is needed: the confirmation e-mail with the policy certificate is sent there.",
        ),
      );
    if (quote?.expiresAt && quote.expiresAt <= deps.clock.now()) {
      messages.push(
        acpError(
          'expired',
          '$.metadata.trip',
          'The price held for this trip has expired; send the trip again (update) to quote anew.',
        ),
      );
    }
    if (quote?.purchase && quote.purchase.channel !== 'acp') messages.push(paidElsewhere());
    return {
      status: messages.some((m) => m.type === 'error') ? 'not_ready_for_payment' : 'ready_for_payment',
      quoteId,
      messages,
    };
  };
}
