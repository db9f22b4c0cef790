import { invalidInput } from './operator-error';

/**
 * An operator's optional branding of the checkout-link pages (docs/portal-api.md, Branding). The colour is the pages'
 * accent: links, and buttons with white text on it, so it must reach WCAG AA for normal text against white (4.5:1). The
 * logo is an https image the payer's browser loads: the page's CSP allows exactly its origin in img-src.
 */
export const BRANDING_LIMITS = { maxLogoUrlLength: 2048, minContrast: 4.5 } as const;

const HEX = /^#[0-9a-f]{6}$/;

/** The WCAG 2.x contrast ratio of a #rrggbb colour with white. */
export function contrastWithWhite(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05);
}

/** null/'' clear it; otherwise a #rrggbb colour (lower-cased) that white text reads on at 4.5:1 or better. */
export function optionalBrandColor(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  const raw = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (raw.length > 7 || !HEX.test(raw)) {
    throw invalidInput('brandColor must be a hex colour like #0b5cad');
  }
  const ratio = contrastWithWhite(raw);
  if (ratio < BRANDING_LIMITS.minContrast) {
    throw invalidInput(
      `brandColor ${raw} is too light: white text on it has a contrast of ${ratio.toFixed(2)}:1, ` +
        `WCAG AA needs ${BRANDING_LIMITS.minContrast}:1; choose a darker colour`,
    );
  }
  return raw;
}

/** null/'' clear it; otherwise an https URL, without credentials or fragment, at most 2048 characters. */
export function optionalLogoUrl(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  const raw = typeof value === 'string' ? value.trim() : '';
  if (raw.length > BRANDING_LIMITS.maxLogoUrlLength) {
    throw invalidInput(`logoUrl is longer than ${BRANDING_LIMITS.maxLogoUrlLength} characters`);
  }
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || url.protocol !== 'https:') throw invalidInput('logoUrl must be an https URL');
  if (url.username || url.password) throw invalidInput('logoUrl must not contain credentials');
  if (url.hash) throw invalidInput('logoUrl must not contain a fragment');
  return url.toString();
}
