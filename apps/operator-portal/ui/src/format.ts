/** Formatting for people: dates, relative times, basis points, key states. Pure; tested in format.spec.ts. */
import { PORTAL_LIMITS } from '@expedition/contracts/rules';

export function formatDateTime(iso: string | null | undefined, locale?: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

export function formatDate(iso: string | null | undefined, locale?: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  // A calendar day (YYYY-MM-DD) is a UTC day: format it in UTC so it never shows as the day before.
  const timeZone = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? 'UTC' : undefined;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone }).format(date);
}

/** "in 3 hours", "5 minutes ago"; "never" for null. */
export function formatRelative(iso: string | null | undefined, now: Date = new Date(), locale?: string): string {
  if (!iso) return 'never';
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return '—';
  const seconds = Math.round((then - now.getTime()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 45) return rtf.format(0, 'second') === 'now' ? 'just now' : rtf.format(seconds, 'second');
  if (abs < 45 * 60) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 22 * 3600) return rtf.format(Math.round(seconds / 3600), 'hour');
  if (abs < 26 * 86400) return rtf.format(Math.round(seconds / 86400), 'day');
  if (abs < 320 * 86400) return rtf.format(Math.round(seconds / (30 * 86400)), 'month');
  return rtf.format(Math.round(seconds / (365 * 86400)), 'year');
}

/** 1000 bps → "10%", 1250 → "12.5%", 5 → "0.05%". Basis points are integers; no float surprises in the text. */
export function formatBps(bps: number): string {
  const whole = Math.trunc(bps / 100);
  const rest = Math.abs(bps % 100);
  if (rest === 0) return `${whole}%`;
  const decimals = rest % 10 === 0 ? String(rest / 10) : String(rest).padStart(2, '0');
  return `${bps < 0 && whole === 0 ? '-' : ''}${whole}.${decimals}%`;
}

/** Percent with one decimal from a ratio 0..1 (conversion); "—" when there is nothing to divide. */
export function formatPercent(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '—';
  return `${(Math.round(ratio * 1000) / 10).toFixed(1)}%`;
}

export type KeyState = 'active' | 'expiring' | 'expired' | 'revoked';

/** A publishable key's state: revoked wins; then an expiry in the past (expired) or future (expiring: rotation grace). */
export function keyState(
  key: { revokedAt?: string | null; expiresAt?: string | null; state?: string },
  now: Date = new Date(),
): KeyState {
  if (key.state === 'active' || key.state === 'expiring' || key.state === 'expired' || key.state === 'revoked')
    return key.state;
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt) return new Date(key.expiresAt).getTime() <= now.getTime() ? 'expired' : 'expiring';
  return 'active';
}

/** pk_op_test_0123…cdef → "pk_op_test_0123…cdef" shortened for tables (the full key stays copyable). */
export function shortKey(key: string, keep = 6): string {
  const prefix = /^(pk|sk)_op_(test_|live_)?/.exec(key)?.[0] ?? '';
  const body = key.slice(prefix.length);
  if (body.length <= keep * 2 + 1) return key;
  return `${prefix}${body.slice(0, keep)}…${body.slice(-keep)}`;
}

/** Parses a whole number of basis points 0..PORTAL_LIMITS.maxCommissionBps (10 000) from a form ("12.5%" is not accepted: bps only). */
export function parseBps(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,5}$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= 0 && value <= PORTAL_LIMITS.maxCommissionBps ? value : null;
}

/** A datetime-local input's value ("2026-12-01T09:30") → ISO string in UTC, or null when empty/invalid. */
export function localInputToIso(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
