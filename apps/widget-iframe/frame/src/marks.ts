/**
 * Performance API marks on the document's own timeline: what a traveler waits for, readable in any browser's
 * performance panel and by `npm run bench -- widget` (tools/bench/widget-timing.ts). A mark is one entry in the
 * browser's timeline buffer: no measurable cost, nothing sent anywhere.
 */
export const MARKS = {
  /** The form's first render is on screen (set with `quote.ready {}`, after the paint). */
  formVisible: 'svc:form-visible',
  /** A valid form was submitted: the quote request starts. */
  quoteSubmitted: 'svc:quote-submitted',
  /** The plan cards of that quote are on screen (after the paint). */
  plansVisible: 'svc:plans-visible',
} as const;

export function mark(name: (typeof MARKS)[keyof typeof MARKS]): void {
  performance.mark(name);
}
