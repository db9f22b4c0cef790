/**
 * The widget's boot data: what the widget server (apps/widget-iframe) writes into the iframe document and the hosted
 * Tier 1 page as ONE non-executable block, and what the frame UI (apps/widget-iframe/frame) reads before anything else:
 *
 *   <script type="application/json" id="svc-boot">{ ...WidgetBootData }</script>
 *
 * The CSP never runs it (type application/json), so it needs no nonce. The server must escape `<` in the JSON (as
 * `\u003c`) so no value can close the element. Imported by `@expedition/contracts/widget-boot`; like
 * `widget-protocol.ts` it imports nothing at runtime (no zod), so browser code pays nothing for it.
 */
import type { Mode } from './rules';
import type { WidgetPrefill } from './widget-protocol';

/** The `id` of the boot data element. */
export const WIDGET_BOOT_ELEMENT_ID = 'svc-boot';

/** Why the server refuses to show the widget (also the `quote.error` code the refused frame posts). */
export type WidgetRefusalCode = 'unauthorized' | 'origin_not_allowed';

export interface WidgetBootData {
  kind: 'frame' | 'hosted';
  /** 'refused': unknown/revoked/expired key, inactive operator, live key without embedding, or (frame) a parent origin the key does not allow. */
  state: 'ok' | 'refused';
  refusal?: { code: WidgetRefusalCode; message: string };
  publishableKey: string;
  /** frame only: from the URL */
  instanceId?: string;
  /** frame only: the page origin the iframe posts to (postMessage target); verified against the key's allowed origins (+ first-party dashboard origins for test keys). */
  parentOrigin?: string;
  /** embed-api base URL, e.g. http://localhost:3002 */
  embedUrl: string;
  mode?: Mode;
  /** The provider's cap for this operator (operators.integration_tier, 1..3). */
  allowedTier: 1 | 2 | 3;
  payments: { provider: 'simulated' | 'stripe'; stripePublishableKey?: string };
  /** Widget build version, e.g. "1.0.0". */
  version: string;
  operatorName?: string;
  /** hosted only: prefill from the query string */
  prefill?: WidgetPrefill;
}
