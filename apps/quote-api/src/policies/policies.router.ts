import { Router, type RequestHandler, type Response } from 'express';
import { AppError } from '@expedition/http-kit';
import { negotiateLocale, negotiateRenderLocale } from '@expedition/i18n';
import { certificateContentDisposition, renderCertificate } from '@expedition/policy-documents';
import { documentPageHeaders, queryLocale } from '../documents/document-page';
import { renderPolicyNotFoundPage, renderPolicyPage } from './policy.page';
import type { PolicyService } from './policy.service';

/** `Authorization: Bearer <token>`; undefined when absent or of another scheme. */
function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

const missingToken = () =>
  new AppError(401, 'unauthorized', 'Send the policy access token from the receipt: Authorization: Bearer pat_…');

/** Nothing about a policy may be cached by a shared cache, indexed, or leak its URL (and token) in a Referer. */
function privateHeaders(res: Response): void {
  res.set({ 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex' });
}

/**
 * GET /api/v1/policies/{policyNumber} (Bearer token) and /certificate.pdf (Bearer token or `?access_token=`, for a
 * person opening the link from a receipt). Unknown policy, wrong token and another policy's token: the same 404.
 */
export function policiesRouter(deps: { policies: PolicyService }): Router {
  const router = Router();

  router.get('/policies/:policyNumber', async (req, res) => {
    privateHeaders(res);
    const token = bearerToken(req.get('authorization'));
    if (!token) {
      res.set('WWW-Authenticate', 'Bearer realm="policies"');
      throw missingToken();
    }
    res.json(await deps.policies.lookup(req.params.policyNumber, token));
  });

  router.get('/policies/:policyNumber/certificate.pdf', async (req, res) => {
    privateHeaders(res);
    const query = req.query['access_token'];
    const token =
      bearerToken(req.get('authorization')) ?? (typeof query === 'string' && query !== '' ? query : undefined);
    if (!token) {
      res.set('WWW-Authenticate', 'Bearer realm="policies"');
      throw missingToken();
    }
    const policy = await deps.policies.lookup(req.params.policyNumber, token);
    // In the language the policy was bought in, unless the link asks for another (`?locale=`, from the policy page).
    const locale = negotiateLocale({ explicit: [queryLocale(req.query['locale']), policy.locale] });
    const pdf = await renderCertificate(policy, locale);
    res
      .status(200)
      .set({
        'Content-Type': 'application/pdf',
        // Named in the certificate's language: an ASCII `filename` and the UTF-8 `filename*` (RFC 6266).
        'Content-Disposition': certificateContentDisposition(policy.policyNumber, locale),
        'Content-Length': String(pdf.length),
        'Content-Language': locale,
      })
      .end(pdf);
  });

  return router;
}

/**
 * GET /policies/{policyNumber}?access_token=pat_… — the policy page for people (HTML). The same look-up (and token
 * check) as the JSON route; an unknown number, a wrong token and no token all get the same 404 page.
 */
export function policyPageRouter(deps: { policies: PolicyService; rateLimit: RequestHandler }): Router {
  const router = Router();
  router.get('/policies/:policyNumber', deps.rateLimit, async (req, res) => {
    privateHeaders(res);
    res.setHeader('Cache-Control', 'no-store');
    documentPageHeaders(res);
    const query = req.query['access_token'];
    const token = typeof query === 'string' ? query : undefined;
    const asked = queryLocale(req.query['locale']);
    try {
      const policy = await deps.policies.lookup(String(req.params['policyNumber']), token);
      // The language the policy was bought in, unless the page's language switch asked for another.
      const locale = negotiateRenderLocale({ explicit: [asked, policy.locale] });
      res.status(200).setHeader('Content-Language', locale).send(renderPolicyPage(policy, locale));
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'policy_not_found') throw err;
      const locale = negotiateRenderLocale({ explicit: [asked], acceptLanguage: req.get('accept-language') });
      res.status(404).setHeader('Content-Language', locale).send(renderPolicyNotFoundPage(locale));
    }
  });
  return router;
}
