/**
 * `appearance` → the --svc-* variables of tokens.css, set on :root through the CSSOM (allowed by a strict
 * `style-src 'self'`; no inline <style>). A value the browser does not accept for its property is ignored.
 */
import type { WidgetAppearance } from '@expedition/contracts/widget-protocol';

const VARIABLES: [keyof WidgetAppearance, string, string][] = [
  ['accentColor', '--svc-accent', 'color'],
  ['backgroundColor', '--svc-bg', 'color'],
  ['textColor', '--svc-text', 'color'],
  ['borderRadius', '--svc-radius', 'border-radius'],
  ['fontFamily', '--svc-font', 'font-family'],
];

/** sRGB relative luminance of `#rgb` / `#rrggbb`; undefined for other notations. */
export function luminance(color: string): number | undefined {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim())?.[1];
  if (!hex) return undefined;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function applyAppearance(
  root: HTMLElement,
  appearance: WidgetAppearance | undefined,
  supports = (p: string, v: string) => CSS.supports(p, v),
): void {
  for (const [, variable] of VARIABLES) root.style.removeProperty(variable);
  root.style.removeProperty('--svc-accent-contrast');
  root.removeAttribute('data-theme');
  if (!appearance) return;
  for (const [key, variable, property] of VARIABLES) {
    const value = appearance[key];
    if (typeof value === 'string' && supports(property, value)) root.style.setProperty(variable, value);
  }
  const accent = appearance.accentColor ? luminance(appearance.accentColor) : undefined;
  // Text on the accent (buttons) stays readable: dark text on a light accent, white on a dark one.
  if (accent !== undefined) root.style.setProperty('--svc-accent-contrast', accent > 0.4 ? '#0b1220' : '#ffffff');
  if (appearance.theme === 'light' || appearance.theme === 'dark') root.setAttribute('data-theme', appearance.theme);
}

/** A locale Intl accepts, else undefined (the browser's). */
export function safeLocale(locale: string | undefined): string | undefined {
  if (!locale) return undefined;
  try {
    return Intl.getCanonicalLocales(locale)[0];
  } catch {
    return undefined;
  }
}
