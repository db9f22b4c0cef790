/**
 * The widget's in-page protocol (SERVICE-SPEC §6): event names, their payloads and the `svc:*` postMessage messages
 * between the loader and the iframe. Imported by `@expedition/contracts/widget-protocol`.
 *
 * This file imports nothing and holds only types and a few constants, so the browser loader can import it at no
 * runtime cost (no zod). The zod schemas in `events/widget-events.schema.ts` are checked against these types at
 * compile time; this file is the source of truth.
 *
 * Every payload field is optional unless the spec marks it required. Consumers read the fields they use and ignore
 * the others: new optional fields and new event names are additive changes (spec §9.5).
 */

/** The five events of embed v1, in their logical order (spec §6 rule 3). */
export const WIDGET_EVENT_NAMES = [
  'quote.ready',
  'quote.selected',
  'quote.error',
  'payment.succeeded',
  'payment.failed',
] as const;
export type WidgetEventName = (typeof WIDGET_EVENT_NAMES)[number];

/** The quote form first renders, or instant options are ready. */
export interface QuoteReadyEvent {
  /** May be absent early; keep the last non-empty value (`quote.selected` carries none). */
  quoteId?: string;
  /** Number of plans surfaced. */
  plansCount?: number;
}

/** A traveler clicked a plan card; fires on every click, the last one is current. */
export interface QuoteSelectedEvent {
  planId: string;
  /** Integer minor units (cents), re-emitted exactly as received; divide by 100 for display. */
  premiumCents: number;
  /** ISO 4217 code, forwarded untouched. */
  currency?: string;
}

/** The quote or options request failed. */
export interface QuoteErrorEvent {
  /** Free-form machine-readable code. */
  code?: string;
  message?: string;
}

/** Tier 3 only: the payment confirmed inside the iframe. A UX signal; fulfilment uses the `policy.issued` webhook. */
export interface PaymentSucceededEvent {
  quoteId?: string;
  planId?: string;
  /** Integer minor units; may be absent. */
  premiumCents?: number;
  currency?: string;
}

/** Tier 3 only: the payment failed inside the iframe. */
export interface PaymentFailedEvent {
  /** Free-form; no closed set of values, do not switch on it. */
  code?: string;
  message?: string;
}

export interface WidgetEventPayloads {
  'quote.ready': QuoteReadyEvent;
  'quote.selected': QuoteSelectedEvent;
  'quote.error': QuoteErrorEvent;
  'payment.succeeded': PaymentSucceededEvent;
  'payment.failed': PaymentFailedEvent;
}
export type WidgetEventPayload<E extends WidgetEventName = WidgetEventName> = WidgetEventPayloads[E];

/** Namespace of every postMessage between the loader and the iframe; removed before handlers receive an event. */
export const WIDGET_MESSAGE_PREFIX = 'svc:';
export type WidgetMessagePrefix = typeof WIDGET_MESSAGE_PREFIX;

/** `svc:quote.ready`, `svc:quote.selected`, … */
export type WidgetEventMessageType<E extends WidgetEventName = WidgetEventName> = `${WidgetMessagePrefix}${E}`;

/**
 * An event message posted by the iframe to the loader (target origin: the operator page's origin, never `*`). The
 * loader accepts it only from the embed origin and the mounted iframe's window, strips the prefix and calls the
 * handlers with `payload`. Unknown `svc:` types are ignored (new internal message types are additive).
 */
export type WidgetEventMessage<E extends WidgetEventName = WidgetEventName> = {
  [K in E]: { type: WidgetEventMessageType<K>; payload: WidgetEventPayload<K> };
}[E];

/** Any message on the `svc:` channel; `type` starts with the prefix. */
export interface WidgetMessage {
  type: `${WidgetMessagePrefix}${string}`;
  payload?: unknown;
}
