/**
 * Markup inside a translated sentence (a link, a bold number) without building the sentence from pieces: pass
 * `slot(0)` as the message's argument, then split the result with `splitSlots` and put the markup where each slot is.
 * The sentence stays whole in every language, with its words around the markup in that language's order.
 */
export const slot = (i: number): string => `\uE000${i}\uE001`;

/** `"Call X on \uE0000\uE001 now"` → `['Call X on ', 0, ' now']`: text, and the slot numbers in order. */
export function splitSlots(text: string): (string | number)[] {
  return text
    .split(/\uE000(\d+)\uE001/)
    .map((part, i) => (i % 2 === 1 ? Number(part) : part))
    .filter((part) => part !== '');
}
