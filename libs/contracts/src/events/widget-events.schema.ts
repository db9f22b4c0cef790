import { z } from 'zod';

/** In-page widget events (SERVICE-SPEC §6). Every field optional unless marked required; consumers ignore unknowns. */
export const QuoteReadyEventSchema = z.object({ quoteId: z.string().optional(), plansCount: z.number().optional() });
export const QuoteSelectedEventSchema = z.object({
  planId: z.string(),
  premiumCents: z.number().int(),
  currency: z.string().optional(),
});
export const QuoteErrorEventSchema = z.object({ code: z.string().optional(), message: z.string().optional() });
export const PaymentSucceededEventSchema = z.object({
  quoteId: z.string().optional(),
  planId: z.string().optional(),
  premiumCents: z.number().int().optional(),
  currency: z.string().optional(),
});
export const PaymentFailedEventSchema = z.object({ code: z.string().optional(), message: z.string().optional() });

export const WIDGET_EVENT_SCHEMAS = {
  'quote.ready': QuoteReadyEventSchema,
  'quote.selected': QuoteSelectedEventSchema,
  'quote.error': QuoteErrorEventSchema,
  'payment.succeeded': PaymentSucceededEventSchema,
  'payment.failed': PaymentFailedEventSchema,
} as const;
export type WidgetEventName = keyof typeof WIDGET_EVENT_SCHEMAS;
export const WIDGET_EVENT_NAMES = Object.keys(WIDGET_EVENT_SCHEMAS) as WidgetEventName[];
export type WidgetEventPayload<E extends WidgetEventName> = z.infer<(typeof WIDGET_EVENT_SCHEMAS)[E]>;

/** postMessage channel prefix; removed before handlers receive the event. */
export const WIDGET_MESSAGE_PREFIX = 'svc:';
