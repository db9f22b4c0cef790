/**
 * Operator names that read alike: travelers see "Offered by <name>" on checkout pages, so before the provider turns
 * live embedding on for an operator it is shown every other operator whose name looks the same (docs/security.md,
 * "Names that deceive"; docs/portal.md, Provider admin).
 */

/** Letters of other scripts drawn like Latin ones (Unicode confusables, the common part), and digit stand-ins. */
const CONFUSABLES: Readonly<Record<string, string>> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'l',
  ο: 'o',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ɡ: 'g',
  ı: 'i',
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ħ: 'h',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  '0': 'o',
  '1': 'l',
  '3': 'e',
  '5': 's',
  '8': 'b',
  '|': 'l',
};
const CONFUSABLE = new RegExp(`[${Object.keys(CONFUSABLES).join('').replace(/[|\\]/g, '\\$&')}]`, 'gu');

/**
 * The form two names that look alike share: NFKC (full-width and styled letters), lower case, accents dropped,
 * confusable letters and digits mapped to Latin, anything but letters and digits dropped (spaces, punctuation,
 * invisible characters), `rn` read as `m` and `vv` as `w`. "Polar Horizons Expeditions (demo)",
 * "POLAR-HORIZONS expeditions demo" and "Роlаr Hоrizоns Ехреditiоns (dеmо)" (Cyrillic) share one.
 */
export function nameSkeleton(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(CONFUSABLE, (char) => CONFUSABLES[char] ?? char)
    .replace(/[^\p{L}\p{N}]/gu, '')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');
}

/** Whether two names read alike: the same skeleton, or one's skeleton is the other's with a few characters added. */
export function namesLookAlike(a: string, b: string): boolean {
  const [x, y] = [nameSkeleton(a), nameSkeleton(b)];
  if (x === '' || y === '') return false;
  if (x === y) return true;
  const [shorter, longer] = x.length <= y.length ? [x, y] : [y, x];
  // "Polar Horizons" and "Polar Horizons Expeditions (demo)" are not look-alikes; "Polar Horizons Expeditions" and
  // "Polar Horizons Expeditions Ltd" are.
  return shorter.length >= 8 && longer.startsWith(shorter) && longer.length - shorter.length <= 4;
}
