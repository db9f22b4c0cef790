import { Router, type Request, type Response } from 'express';
import { parsePublishableKey, type ResolveKey, type ResolvedKey } from '@expedition/auth-publishable-key';
import type { WidgetBootData } from '@expedition/contracts/widget-boot';
import { negotiateRenderLocale } from '@expedition/i18n';
import {
  decideFrame,
  decideHosted,
  documentCsp,
  prefillFromQuery,
  renderDocument,
  type DocumentSettings,
} from './documents';
import type { FrameAssets } from './frame-assets';
import { unavailable } from './responses';

export const FRAME_PATH = '/frame';
export const HOSTED_QUOTE_PATH = '/quote';

/** The widget's documents: the iframe document `/frame` and the hosted Tier 1 page `/quote`. */
export function documentsRouter(deps: {
  assets: FrameAssets;
  settings: DocumentSettings;
  /** Publishable key -> valid key or null: the same cached resolver as the embed gate (revocation bound 5 s). */
  resolveKey: ResolveKey;
}): Router {
  const router = Router();
  const { assets, settings } = deps;

  router.get(FRAME_PATH, async (req, res) => {
    const bundle = assets.bundleFor('frame');
    if (!bundle) return unavailable(res, 'The widget is not built yet.');
    const presentedKey = queryString(req, 'pk') ?? '';
    const key = await resolve(presentedKey);
    const decision = decideFrame(
      { presentedKey, key, parent: queryString(req, 'parent'), instanceId: queryString(req, 'instance') },
      settings,
    );
    logDocument(req, decision.boot, key);
    // The browser's language until the page's MountConfig.locale arrives with svc:frame.init.
    const lang = negotiateRenderLocale({ acceptLanguage: req.get('accept-language') });
    sendDocument(
      res,
      documentCsp(decision.frameAncestors, settings),
      renderDocument({ ...decision.boot, locale: lang }, bundle, lang),
      lang,
    );
  });

  router.get(HOSTED_QUOTE_PATH, async (req, res) => {
    const bundle = assets.bundleFor('hosted');
    if (!bundle) return unavailable(res, 'The widget is not built yet.');
    const presentedKey = queryString(req, 'pk') ?? '';
    const key = await resolve(presentedKey);
    const boot = decideHosted(
      { presentedKey, key, prefill: prefillFromQuery(req.query as Record<string, unknown>) },
      settings,
    );
    logDocument(req, boot, key);
    res.setHeader('X-Frame-Options', 'DENY');
    // `?locale=` (a link in the operator's language, or the page's language switch), else the browser's.
    const lang = negotiateRenderLocale({
      explicit: [queryString(req, 'locale')],
      acceptLanguage: req.get('accept-language'),
    });
    sendDocument(res, documentCsp("'none'", settings), renderDocument({ ...boot, locale: lang }, bundle, lang), lang);
  });
  return router;

  /** Unparseable keys never reach the store; a store failure propagates (500), never a refusal that looks like revocation. */
  async function resolve(presented: string): Promise<ResolvedKey | null> {
    const parsed = parsePublishableKey(presented);
    return parsed ? deps.resolveKey(parsed.key) : null;
  }

  function logDocument(req: Request, boot: WidgetBootData, key: ResolvedKey | null): void {
    if (boot.state === 'ok') return;
    req.log?.info(
      { kind: boot.kind, refusal: boot.refusal?.code, keyId: key?.keyId ?? null, parent: boot.parentOrigin ?? null },
      'widget document refused',
    );
  }
}

function sendDocument(res: Response, csp: string, html: string, lang: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('Content-Language', lang);
  // The CSP (frame-ancestors) and the boot data depend on live key data: never cached anywhere.
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.type('text/html; charset=utf-8').send(html);
}

/** One string value of a query parameter (a repeated parameter counts as absent). */
function queryString(req: Request, name: string): string | undefined {
  const value: unknown = req.query[name];
  return typeof value === 'string' ? value.trim() : undefined;
}
