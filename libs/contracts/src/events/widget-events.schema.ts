import { z } from 'zod';
import type {
  PaymentFailedEvent,
  PaymentSucceededEvent,
  QuoteErrorEvent,
  QuoteReadyEvent,
  QuoteSelectedEvent,
  WidgetEventName,
  WidgetEventPayloads,
} from '../widget-protocol';

// The widget protocol (names, payload types, `svc:` messages) lives in the zod-free `../widget-protocol` so the
// browser loader can import it for free; these schemas validate the same payloads and must match it exactly.
export {
  WIDGET_EVENT_NAMES,
  WIDGET_MESSAGE_PREFIX,
  type WidgetEventName,
  type WidgetEventPayload,
  type WidgetEventPayloads,
  type WidgetEventMessage,
  type WidgetEventMessageType,
} from '../widget-protocol';

/**
 * In-page widget events (docs/contract.md, Widget events). Every field optional unless marked required; consumers
 * ignore unknowns.
 */
export const QuoteReadyEventSchema = z
  .object({ quoteId: z.string().optional(), plansCount: z.number().optional() })
  .meta({ id: 'QuoteReadyEvent' });
export const QuoteSelectedEventSchema = z
  .object({ planId: z.string(), premiumCents: z.number().int(), currency: z.string().optional() })
  .meta({ id: 'QuoteSelectedEvent' });
export const QuoteErrorEventSchema = z
  .object({ code: z.string().optional(), message: z.string().optional() })
  .meta({ id: 'QuoteErrorEvent' });
export const PaymentSucceededEventSchema = z
  .object({
    quoteId: z.string().optional(),
    planId: z.string().optional(),
    premiumCents: z.number().int().optional(),
    currency: z.string().optional(),
  })
  .meta({ id: 'PaymentSucceededEvent' });
export const PaymentFailedEventSchema = z
  .object({ code: z.string().optional(), message: z.string().optional() })
  .meta({ id: 'PaymentFailedEvent' });

export const WIDGET_EVENT_SCHEMAS = {
  'quote.ready': QuoteReadyEventSchema,
  'quote.selected': QuoteSelectedEventSchema,
  'quote.error': QuoteErrorEventSchema,
  'payment.succeeded': PaymentSucceededEventSchema,
  'payment.failed': PaymentFailedEventSchema,
} as const satisfies { [E in WidgetEventName]: z.ZodType<WidgetEventPayloads[E]> };

// Both directions, so neither side can gain or lose a field (or an optional marker) without the other.
type Assignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Same<A, B> = Assignable<A, B> extends true ? Assignable<keyof A, keyof B> : false;
type SchemaOf<E extends WidgetEventName> = z.infer<(typeof WIDGET_EVENT_SCHEMAS)[E]>;
const _schemasMatchProtocol = {
  'quote.ready': true satisfies Same<SchemaOf<'quote.ready'>, QuoteReadyEvent>,
  'quote.selected': true satisfies Same<SchemaOf<'quote.selected'>, QuoteSelectedEvent>,
  'quote.error': true satisfies Same<SchemaOf<'quote.error'>, QuoteErrorEvent>,
  'payment.succeeded': true satisfies Same<SchemaOf<'payment.succeeded'>, PaymentSucceededEvent>,
  'payment.failed': true satisfies Same<SchemaOf<'payment.failed'>, PaymentFailedEvent>,
} as const satisfies Record<WidgetEventName, true>;
