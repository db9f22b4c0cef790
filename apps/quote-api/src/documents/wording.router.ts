import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { POLICY_WORDING_PATH, policyWordingUrls } from '@expedition/contracts';
import { getPlan } from '@expedition/domain-pricing';
import { AppError } from '@expedition/http-kit';
import { negotiateLocale, negotiateRenderLocale, type RenderLocale } from '@expedition/i18n';
import { policyWording, renderWordingPdf } from '@expedition/policy-documents';
import { documentPageHeaders, queryLocale } from './document-page';
import { renderWordingPage } from './wording.page';

interface Rendered {
  body: Buffer;
  etag: string;
}

/** Public and the same for everyone: shared caches may keep it an hour, then revalidate with the ETag. */
const CACHE_CONTROL = 'public, max-age=3600';

const etagOf = (body: Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** Whether the client's copy is current (`If-None-Match`, RFC 9110: a list of tags or `*`; weak tags compare too). */
function fresh(req: Request, etag: string): boolean {
  const header = req.get('if-none-match');
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

function send(req: Request, res: Response, type: 'html' | 'pdf', doc: Rendered, locale: RenderLocale): void {
  res.setHeader('Cache-Control', CACHE_CONTROL);
  // One URL, one document per language: a shared cache keys on Accept-Language, and each language has its own ETag.
  res.setHeader('Vary', 'Accept-Language');
  res.setHeader('Content-Language', locale);
  res.setHeader('ETag', doc.etag);
  if (fresh(req, doc.etag)) {
    res.status(304).end();
    return;
  }
  if (type === 'html') documentPageHeaders(res);
  else res.type('application/pdf').setHeader('X-Content-Type-Options', 'nosniff');
  res.status(200).setHeader('Content-Length', String(doc.body.length));
  res.end(req.method === 'HEAD' ? undefined : doc.body);
}

/**
 * GET /policy-wording/{planId} (HTML) and /policy-wording/{planId}.pdf: each plan's policy wording, generated from
 * the catalog, in the language of `?locale=` (the HTML page also in the pseudo-locale `en-XA`), else of
 * Accept-Language, else English. Rendered once per plan, type and language, and kept (the catalog is code: it
 * changes only with a deploy).
 */
export function wordingRouter(deps: { publicUrl: string }): Router {
  const router = Router();
  const cache = new Map<string, Promise<Rendered>>();

  function rendered(planId: string, type: 'html' | 'pdf', locale: RenderLocale): Promise<Rendered> | null {
    const plan = getPlan(planId);
    if (!plan) return null;
    const key = `${type}:${locale}:${plan.id}`;
    let doc = cache.get(key);
    if (!doc) {
      const wording = policyWording(plan, locale);
      const urls = policyWordingUrls(deps.publicUrl, plan.id);
      doc = (
        type === 'pdf'
          ? renderWordingPdf(wording, { html: `${urls.html}?locale=${locale}` })
          : Promise.resolve(Buffer.from(renderWordingPage(wording, urls), 'utf8'))
      ).then((body) => ({ body, etag: etagOf(body) }));
      cache.set(key, doc);
    }
    return doc;
  }

  router.get(`${POLICY_WORDING_PATH}/:file`, async (req, res) => {
    const file = req.params.file;
    const type = file.endsWith('.pdf') ? 'pdf' : 'html';
    const planId = type === 'pdf' ? file.slice(0, -'.pdf'.length) : file;
    const asked = { explicit: [queryLocale(req.query['locale'])], acceptLanguage: req.get('accept-language') };
    // The PDF's built-in font cannot print the pseudo-locale's letters: it is for the HTML page's layout checks.
    const locale = type === 'pdf' ? negotiateLocale(asked) : negotiateRenderLocale(asked);
    const doc = rendered(planId, type, locale);
    if (!doc) throw AppError.notFound('plan_not_found', `No plan with id "${planId}"`);
    send(req, res, type, await doc, locale);
  });

  return router;
}
