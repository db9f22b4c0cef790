import type { ResolvedKey } from '@expedition/auth-publishable-key';
import { normalizeOrigin, parsePublishableKey } from '@expedition/auth-publishable-key';
import type { WidgetBootData } from '@expedition/contracts/widget-boot';
import type { WidgetPrefill } from '@expedition/contracts/widget-protocol';
import type { RenderLocale } from '@expedition/i18n';
import { widgetMessages } from '@expedition/i18n/documents';
import { modulePreloads, type FrameBundle } from './frame-assets';

export const STRIPE_JS_ORIGIN = 'https://js.stripe.com';
export const STRIPE_API_ORIGIN = 'https://api.stripe.com';
export const STRIPE_HOOKS_ORIGIN = 'https://hooks.stripe.com';

export interface DocumentSettings {
  embedUrl: string;
  embedOrigin: string;
  /** Provider dashboard origins (the portal): may frame the widget with test keys. */
  testDashboardOrigins: readonly string[];
  payments: { provider: 'simulated' | 'stripe'; stripePublishableKeys: { test?: string; live?: string } };
  version: string;
}

/** The loader's instance ids (`w1`, a random id…): short, URL-safe. Anything else is dropped from the boot data. */
const INSTANCE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const REFUSAL_MESSAGES = {
  unauthorized: 'This insurance widget is not available: the publishable key is unknown, revoked or not enabled.',
  origin_not_allowed:
    'This insurance widget is not available on this site: its origin is not in the allowed origins of the key.',
} as const;

/**
 * A CSP host-source we can write verbatim: scheme, ASCII host (punycode) or IPv6 literal, optional port. The URL
 * parser lets `;` or `,` through in host names; such an entry could add directives to the header, so it is dropped.
 */
const CSP_SAFE_ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** Origins allowed to frame the widget for this key: its operator's allowed origins, plus the dashboard for test keys. */
export function framingOrigins(key: ResolvedKey, settings: Pick<DocumentSettings, 'testDashboardOrigins'>): string[] {
  const origins =
    key.mode === 'test' ? [...key.allowedOrigins, ...settings.testDashboardOrigins] : [...key.allowedOrigins];
  return [...new Set(origins)].filter((origin) => CSP_SAFE_ORIGIN.test(origin));
}

export interface FrameDecision {
  boot: WidgetBootData;
  /** The `frame-ancestors` source list. */
  frameAncestors: string;
}

/**
 * The iframe document's boot data and framing, per request:
 * - key valid and `parent` one of its framing origins → `ok`, frame-ancestors = exactly those origins;
 * - key valid but `parent` missing or not allowed → `refused` origin_not_allowed, frame-ancestors still = the key's
 *   origins, so a page that is not allowed never even renders it (the browser blocks it; the loader's lifecycle
 *   error fires); a key with no framing origin → `'none'`;
 * - key missing, malformed, unknown, revoked, expired, operator inactive, live without embedding → `refused`
 *   unauthorized with `frame-ancestors *`: the refusal document shows no data and posts `quote.error` to the
 *   `parent` origin only, so the operator's page learns why.
 */
export function decideFrame(
  input: { presentedKey: string; key: ResolvedKey | null; parent: string | undefined; instanceId: string | undefined },
  settings: DocumentSettings,
): FrameDecision {
  const parentOrigin = input.parent ? (normalizeOrigin(input.parent) ?? undefined) : undefined;
  const instanceId = input.instanceId && INSTANCE_ID.test(input.instanceId) ? input.instanceId : undefined;
  const common = {
    kind: 'frame' as const,
    publishableKey: publicKeyText(input.presentedKey),
    embedUrl: settings.embedUrl,
    version: settings.version,
    ...(instanceId ? { instanceId } : {}),
  };
  if (!input.key) {
    return {
      boot: {
        ...common,
        ...(parentOrigin ? { parentOrigin } : {}),
        state: 'refused',
        refusal: { code: 'unauthorized', message: REFUSAL_MESSAGES.unauthorized },
        allowedTier: 1,
        payments: { provider: settings.payments.provider },
      },
      frameAncestors: '*',
    };
  }
  const origins = framingOrigins(input.key, settings);
  const frameAncestors = origins.length > 0 ? origins.join(' ') : "'none'";
  if (!parentOrigin || !origins.includes(parentOrigin)) {
    return {
      boot: {
        ...common,
        ...(parentOrigin ? { parentOrigin } : {}),
        state: 'refused',
        refusal: { code: 'origin_not_allowed', message: REFUSAL_MESSAGES.origin_not_allowed },
        allowedTier: 1,
        payments: { provider: settings.payments.provider },
      },
      frameAncestors,
    };
  }
  return { boot: { ...common, parentOrigin, ...okFields(input.key, settings) }, frameAncestors };
}

/** The hosted Tier 1 page: no parent; refused only for the key itself. */
export function decideHosted(
  input: { presentedKey: string; key: ResolvedKey | null; prefill: WidgetPrefill },
  settings: DocumentSettings,
): WidgetBootData {
  const common = {
    kind: 'hosted' as const,
    publishableKey: publicKeyText(input.presentedKey),
    embedUrl: settings.embedUrl,
    version: settings.version,
  };
  if (!input.key) {
    return {
      ...common,
      state: 'refused',
      refusal: { code: 'unauthorized', message: REFUSAL_MESSAGES.unauthorized },
      allowedTier: 1,
      payments: { provider: settings.payments.provider },
    };
  }
  return {
    ...common,
    ...okFields(input.key, settings),
    ...(Object.keys(input.prefill).length > 0 ? { prefill: input.prefill } : {}),
  };
}

function okFields(key: ResolvedKey, settings: DocumentSettings) {
  const stripePublishableKey =
    settings.payments.provider === 'stripe' ? settings.payments.stripePublishableKeys[key.mode] : undefined;
  return {
    state: 'ok' as const,
    mode: key.mode,
    allowedTier: key.integrationTier,
    payments: { provider: settings.payments.provider, ...(stripePublishableKey ? { stripePublishableKey } : {}) },
    ...(key.operatorName ? { operatorName: key.operatorName } : {}),
  };
}

/** A presented key is echoed only when it has the publishable-key format (it is public); anything else becomes ''. */
function publicKeyText(presented: string): string {
  return parsePublishableKey(presented) ? presented : '';
}

/** The document CSP (default-src 'none'; Stripe's hosts only with the Stripe provider). */
export function documentCsp(
  frameAncestors: string,
  settings: Pick<DocumentSettings, 'embedOrigin' | 'payments'>,
): string {
  const stripe = settings.payments.provider === 'stripe';
  return [
    "default-src 'none'",
    `script-src 'self'${stripe ? ` ${STRIPE_JS_ORIGIN}` : ''}`,
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${settings.embedOrigin}${stripe ? ` ${STRIPE_API_ORIGIN}` : ''}`,
    ...(stripe ? [`frame-src ${STRIPE_JS_ORIGIN} ${STRIPE_HOOKS_ORIGIN}`] : []),
    `frame-ancestors ${frameAncestors}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Query prefill for the hosted page (api-map): unknown or invalid values are dropped, never an error. */
export function prefillFromQuery(query: Record<string, unknown>): WidgetPrefill {
  const text = (name: string, max = 100): string | undefined => {
    const value = query[name];
    if (typeof value !== 'string') return undefined;
    const trimmed = value.trim();
    return trimmed !== '' && trimmed.length <= max ? trimmed : undefined;
  };
  const date = (name: string) => {
    const value = text(name, 10);
    return value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))
      ? value
      : undefined;
  };
  const number = (name: string, min: number, max: number, integer: boolean) => {
    const value = text(name, 20);
    if (!value || !/^\d+(\.\d+)?$/.test(value)) return undefined;
    const n = Number(value);
    return n >= min && n <= max && (!integer || Number.isInteger(n)) ? n : undefined;
  };
  const code = (name: string, pattern: RegExp) => {
    const value = text(name, 10);
    return value && pattern.test(value) ? value.toUpperCase() : undefined;
  };
  const prefill: WidgetPrefill = {
    destination: text('destination'),
    startDate: date('startDate'),
    endDate: date('endDate'),
    travelers: number('travelers', 1, 50, true),
    tripCost: number('tripCost', 1, 10_000_000, false),
    residence: code('residence', /^[A-Za-z]{2}$/),
    state: code('state', /^[A-Za-z]{2,3}$/),
    currency: code('currency', /^[A-Za-z]{3}$/),
  };
  return Object.fromEntries(Object.entries(prefill).filter(([, v]) => v !== undefined)) as WidgetPrefill;
}

/** JSON that cannot close its `<script>` element nor break the HTML parser: `<`, `>`, `&`, U+2028/9 escaped. */
export function bootJson(boot: WidgetBootData): string {
  return JSON.stringify(boot)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The document: stylesheets and one module script from /assets (hashed, immutable), a root element `#svc-root`, and
 * the boot data as ONE non-executable `<script type="application/json" id="svc-boot">`. No inline script or style.
 */
export function renderDocument(boot: WidgetBootData, bundle: FrameBundle, lang: RenderLocale = 'en'): string {
  const page = widgetMessages(lang).page;
  const title =
    boot.kind === 'hosted' && boot.operatorName
      ? page.documentTitleOperator({ operator: boot.operatorName })
      : page.documentTitle();
  // The texts of the document's language load with the entry, not after it (other languages only when chosen), and
  // so do the chunks they import.
  const preloads = modulePreloads(bundle, lang);
  return [
    '<!doctype html>',
    `<html lang="${lang}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="strict-origin-when-cross-origin">',
    `<title>${escapeHtml(title)}</title>`,
    ...bundle.styles.map((file) => `<link rel="stylesheet" href="/assets/${encodeURIComponent(file)}">`),
    `<script type="module" src="/assets/${encodeURIComponent(bundle.script)}"></script>`,
    ...preloads.map((file) => `<link rel="modulepreload" href="/assets/${encodeURIComponent(file)}">`),
    '</head>',
    `<body class="svc-${boot.kind}">`,
    '<div id="svc-root"></div>',
    `<script type="application/json" id="svc-boot">${bootJson(boot)}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
