import { quoteRequestSchemaAt, type Mode, type QuoteResponse } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import { dollarsToCents } from '@expedition/domain-pricing';
import { parseOrThrow } from '@expedition/http-kit';
import { negotiateLocale } from '@expedition/i18n';
import { isUuid, type Clock } from '@expedition/platform';
import type { QuoteService } from '@expedition/quoting';
import { rethrowPricingError } from '../pricing-errors';
import { rethrowQuotingError } from '../quoting-errors';
import { toQuoteResponse } from './quote.mapper';

interface ApiQuoteDeps {
  quotes: QuoteService;
  prisma: PrismaClient;
  clock: Clock;
  /** This deployment's payment mode (QUOTE_API_MODE). */
  mode: Mode;
}

/** Where the input came from: `where` names it in errors (`arguments` for MCP); `acceptLanguage` is the request's header. */
interface ApiQuoteContext {
  where?: string;
  acceptLanguage?: string | null;
  /** A language the channel already chose (an ACP session's): used when the input has no `locale`. */
  locale?: string | null;
  /** The payment mode of the quote, when the channel names it (an ACP agent key's); else the deployment's. */
  mode?: Mode;
}

/**
 * A quote of the quoting API, for `POST /api/v1/quotes`, the MCP `create_quote` tool and ACP sessions alike: validated
 * at the injected clock's "today" (the date window), created by the quote service, answered as a QuoteResponse. The
 * traveler's language: the input's `locale`, else the channel's, else Accept-Language, else English.
 */
export function createApiQuoteService(deps: ApiQuoteDeps) {
  return { create: (input: unknown, context: ApiQuoteContext = {}) => createApiQuote(deps, input, context) };
}

export type ApiQuoteService = ReturnType<typeof createApiQuoteService>;

async function createApiQuote(deps: ApiQuoteDeps, input: unknown, context: ApiQuoteContext): Promise<QuoteResponse> {
  const body = parseOrThrow(quoteRequestSchemaAt(deps.clock.now()), input, context.where);
  const created = await deps.quotes
    .create({
      source: 'api',
      mode: context.mode ?? deps.mode,
      operatorId: await operatorWithId(deps.prisma, body.operator),
      destination: body.destination,
      startDate: body.startDate,
      durationDays: body.durationDays,
      tripCostCents: dollarsToCents(body.tripCost),
      currency: body.currency,
      travelers: body.travelers,
      travelerAges: body.travelerAges,
      residence: body.residence,
      state: body.state,
      depositPaidDate: body.depositPaidDate,
      email: body.email,
      operatorName: body.operator,
      locale: negotiateLocale({ explicit: [body.locale, context.locale], acceptLanguage: context.acceptLanguage }),
    })
    .catch(rethrowQuotingError)
    .catch(rethrowPricingError);
  return toQuoteResponse(created.quote, created.sessionId, created.pricing);
}

/**
 * The spec's `operator` attributes the quote to a registered, active operator only when it is that operator's id,
 * compared exactly: that operator then earns the commission and receives `policy.issued`. Names are display only
 * (kept as `operatorName`): matching them let `"%"` (an ILIKE wildcard) claim the demo operator's commission.
 */
async function operatorWithId(prisma: PrismaClient, operator: string | undefined): Promise<string | null> {
  if (!operator || !isUuid(operator)) return null;
  const found = await prisma.operator.findFirst({ where: { id: operator, status: 'active' }, select: { id: true } });
  return found?.id ?? null;
}
