/**
 * The widget's in-page protocol (docs/contract.md, Widget events): event names, their payloads and the `svc:*`
 * postMessage messages between the loader and the iframe. Imported by `@expedition/contracts/widget-protocol`.
 *
 * This file imports nothing at runtime (only types of the rules entry) and holds only types and a few constants, so
 * the browser loader can import it at no runtime cost (no zod). The zod schemas in `events/widget-events.schema.ts` are
 * checked against these types at compile time; this file is the source of truth.
 *
 * Every payload field is optional unless the spec marks it required. Consumers read the fields they use and ignore
 * the others: new optional fields and new event names are additive changes (spec §9.5).
 */
import type { EMAIL_MAX_LENGTH, QUOTE_LIMITS } from './rules';

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

// ---------------------------------------------------------------------------------------------------------------
// Lifecycle events (additive, spec §9.5): about the iframe itself, apart from the quote events.
// ---------------------------------------------------------------------------------------------------------------

/** Every event name `SvcWidget.on` accepts: the five spec events plus the lifecycle events. */
export const WIDGET_LIFECYCLE_EVENT_NAMES = ['widget.ready', 'widget.error'] as const;
export type WidgetLifecycleEventName = (typeof WIDGET_LIFECYCLE_EVENT_NAMES)[number];

/** The iframe answered the handshake: the form is on screen (or the refusal is). */
export interface WidgetReadyEvent {
  /** The loader build the iframe speaks to (informational). */
  version?: string;
}

/**
 * The iframe could not be shown: `frame_refused` (the frame's load event fired but it never answered: refused by
 * `frame-ancestors` because the page's origin is not in the key's allowed origins, or blocked by the host page's own
 * CSP `frame-src` — Chromium fires load for both), `frame_timeout` (nothing within the loader's timeout: network).
 * Free-form like `quote.error`'s code.
 */
export interface WidgetErrorEvent {
  code?: string;
  message?: string;
}

export interface WidgetLifecycleEventPayloads {
  'widget.ready': WidgetReadyEvent;
  'widget.error': WidgetErrorEvent;
}

/** What every handler receives: the payload plus the mounted instance's id (additive, present on every event). */
export type WidgetHandlerEvent<P> = P & { instanceId: string };

// ---------------------------------------------------------------------------------------------------------------
// Internal messages between the loader and the iframe (same `svc:` channel; unknown types are ignored both ways).
//
// Frame URL: `${WIDGET_URL}/frame?pk=<publishable key>&instance=<instanceId>&parent=<encodeURIComponent(page origin)>`
// The document's `Content-Security-Policy: frame-ancestors` comes from the key's allowed origins; the iframe posts
// only to `window.parent` with the `parent` origin as target, and only when that origin is one the key allows.
//
// 1. iframe -> page  `svc:frame.hello`   { instanceId, version }           the iframe booted (loader: widget.ready)
// 2. page -> iframe  `svc:frame.init`    { instanceId, config }            prefill, tier, locale, appearance
// 3. iframe -> page  `svc:frame.resize`  { instanceId, height }            content height in CSS px (auto-resize)
// 4. page -> iframe  `svc:frame.update`  { instanceId, config }            handle.update(config)
// 5. iframe -> page  `svc:<event>`       { instanceId, payload }           the five spec events
// ---------------------------------------------------------------------------------------------------------------

export const FRAME_MESSAGE = {
  hello: 'svc:frame.hello',
  init: 'svc:frame.init',
  resize: 'svc:frame.resize',
  update: 'svc:frame.update',
} as const;

/** What the loader hands the iframe: MountConfig minus what only the page needs (target, handlers, autoResize). */
export interface FrameConfig {
  tier?: 1 | 2 | 3;
  locale?: string;
  appearance?: WidgetAppearance;
  prefill?: WidgetPrefill;
}

/** Trip prefill, mirroring the embed quote request (spec §4); every field editable by the traveler. */
export interface WidgetPrefill {
  destination?: string;
  startDate?: string;
  endDate?: string;
  tripCost?: number;
  travelers?: number;
  travelerAges?: number[];
  travelerDobs?: string[];
  residence?: string;
  state?: string;
  email?: string;
  name?: string;
  currency?: string;
}

/** A few theme variables (Stripe's Appearance idea, small). Colours are CSS colours; radius and font are CSS values. */
export interface WidgetAppearance {
  accentColor?: string;
  backgroundColor?: string;
  textColor?: string;
  borderRadius?: string;
  fontFamily?: string;
  /** `auto` follows the visitor's system setting. */
  theme?: 'light' | 'dark' | 'auto';
}

// ---------------------------------------------------------------------------------------------------------------
// The loader's public API: `window.SvcWidget` (spec §6, §9.2). Additive to the spec: `off`, `once`, `version`,
// per-instance handles, lifecycle events, `instanceId` on every payload.
// ---------------------------------------------------------------------------------------------------------------

/** Every event name `SvcWidget.on` accepts, in order: the five spec events, then the lifecycle events. */
export const SVC_WIDGET_EVENT_NAMES = [...WIDGET_EVENT_NAMES, ...WIDGET_LIFECYCLE_EVENT_NAMES] as const;
export type SvcWidgetEventName = WidgetEventName | WidgetLifecycleEventName;
export type SvcWidgetEventPayloads = WidgetEventPayloads & WidgetLifecycleEventPayloads;
/** A handler receives the payload exactly as the iframe sent it, plus `instanceId`. */
export type SvcWidgetHandler<E extends SvcWidgetEventName = SvcWidgetEventName> = (
  event: WidgetHandlerEvent<SvcWidgetEventPayloads[E]>,
) => void;

/**
 * Bounds shared by the loader's hand-written validation and `MountConfigSchema` (zod). The quote limits are the
 * rules entry's (`QUOTE_LIMITS`, `EMAIL_MAX_LENGTH`), written out as literals that the compiler checks against it
 * (`satisfies`): a published pinned loader must keep its bytes (apps/widget-iframe/releases), and reading the values
 * at runtime changes the minified output. Change a limit in rules.ts and this file stops compiling until it agrees.
 * The e-mail pattern is looser than `EMAIL_SHAPE` on purpose: a prefill only fills the field, and the iframe's form
 * checks the shape before sending.
 */
type Quote = typeof QUOTE_LIMITS;
export const MOUNT_CONFIG_LIMITS = {
  publishableKey: /^pk_[A-Za-z0-9_]{1,200}$/,
  isoDate: /^\d{4}-\d{2}-\d{2}$/,
  currency: /^[A-Za-z]{3}$/,
  locale: /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/,
  email: /^[^\s@]+@[^\s@]+$/,
  /** CSS values set through the CSSOM in the iframe: no declaration or markup breakers. */
  cssValue: /^[^;{}<>\\]+$/,
  maxCssValue: 200,
  maxDestination: 100 satisfies Quote['maxDestination'],
  maxTripCost: 10_000_000 satisfies Quote['maxTripCost'],
  maxTravelers: 20 satisfies Quote['maxTravelers'],
  maxAge: 120 satisfies Quote['maxTravelerAge'],
  maxResidence: 56 satisfies Quote['maxResidence'],
  maxEmail: 254 satisfies typeof EMAIL_MAX_LENGTH,
  maxName: 200 satisfies Quote['maxName'],
  maxTitle: 200,
  minLoadTimeoutMs: 100,
  maxLoadTimeoutMs: 120_000,
} as const;

/**
 * What `SvcWidget.mount(target, config)` accepts. Only `publishableKey` (or its alias `pk`) is required. A bad value
 * throws a `TypeError` naming the field at once; an unknown field is ignored with a console warning (a newer optional
 * parameter given to an older pinned loader must not break the page).
 */
export interface MountConfig extends WidgetPrefill {
  /** The operator's publishable key (`pk_op_test_…` or `pk_op_…`). */
  publishableKey?: string;
  /** Alias of `publishableKey`. */
  pk?: string;
  /** Integration tier; the provider's cap for the operator wins (effective tier = min(tier, allowed)). */
  tier?: 1 | 2 | 3;
  /** BCP 47 language tag for texts and money formatting, e.g. `en-GB`. */
  locale?: string;
  appearance?: WidgetAppearance;
  /** The iframe follows its content's height (default `true`); `false` leaves its height to the page's CSS. */
  autoResize?: boolean;
  /** The iframe's accessible `title` (default "Travel insurance quote"). */
  title?: string;
  /**
   * How long the loader waits for the iframe's handshake before `widget.error {code:'frame_timeout'}` (default
   * 15000 ms). A frame that loaded but never answered gives `frame_refused` after min(3000, loadTimeoutMs) ms.
   */
  loadTimeoutMs?: number;
}

/** What `mount()` returns: one mounted widget. Its `on`/`once`/`off` see only this instance's events. */
export interface WidgetHandle {
  readonly instanceId: string;
  on<E extends SvcWidgetEventName>(eventName: E, handler: SvcWidgetHandler<E>): () => void;
  once<E extends SvcWidgetEventName>(eventName: E, handler: SvcWidgetHandler<E>): () => void;
  off<E extends SvcWidgetEventName>(eventName: E, handler: SvcWidgetHandler<E>): void;
  /** Changes prefill, tier, locale, appearance, autoResize or title (merged into the current config). */
  update(config: Omit<MountConfig, 'publishableKey' | 'pk'>): void;
  /** Removes the iframe, its listeners and its handlers. Final: a destroyed handle throws on `on`/`once`/`update`. */
  destroy(): void;
}

/** A CSS selector or a DOM element (typed structurally: this file does not depend on the DOM typings). */
export type MountTarget = string | { readonly nodeType: number };

/** `window.SvcWidget`. */
export interface SvcWidgetApi {
  /** The origin of the loader script (and of the iframe), e.g. `https://widget.example`. */
  readonly embedOrigin: string;
  /** The loader build, e.g. `1.0.0`. */
  readonly version: string;
  /** A selector or an element; mounting again into the same element returns the same (updated) handle. */
  mount(target: MountTarget, config: MountConfig): WidgetHandle;
  on<E extends SvcWidgetEventName>(eventName: E, handler: SvcWidgetHandler<E>): () => void;
  once<E extends SvcWidgetEventName>(eventName: E, handler: SvcWidgetHandler<E>): () => void;
  off<E extends SvcWidgetEventName>(eventName: E, handler: SvcWidgetHandler<E>): void;
}
