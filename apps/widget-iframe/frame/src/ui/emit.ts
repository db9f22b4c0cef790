import type { WidgetEventName, WidgetEventPayload } from '@expedition/contracts/widget-protocol';

/** Sends a widget event to the page (no-op on the hosted page, which has no page to tell). */
export type Emit = <E extends WidgetEventName>(name: E, payload: WidgetEventPayload<E>) => void;
