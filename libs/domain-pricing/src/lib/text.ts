/**
 * Lower-cases, strips accents and trademark signs, and reduces punctuation to single spaces, so that
 * "Galápagos Islands", "galapagos-islands" and "GALAPAGOS  islands" compare equal.
 */
export function normalizeText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[®™℠]/g, '')
    .replace(/&/g, ' and ')
    .replace(/\./g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function tokens(value: string): string[] {
  const normalized = normalizeText(value);
  return normalized === '' ? [] : normalized.split(' ');
}
