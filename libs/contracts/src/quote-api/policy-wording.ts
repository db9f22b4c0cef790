/**
 * Where a plan's policy wording is served: quote-api, `GET /policy-wording/{planId}` (HTML) and
 * `GET /policy-wording/{planId}.pdf`. Public and stable: plan cards, the catalog, the certificate and the policy
 * look-up all link here. `quoteApiUrl` is quote-api's public base URL (QUOTE_API_URL).
 */
export const POLICY_WORDING_PATH = '/policy-wording';

export function policyWordingUrls(quoteApiUrl: string, planId: string): { html: string; pdf: string } {
  const base = `${quoteApiUrl.replace(/\/$/, '')}${POLICY_WORDING_PATH}/${encodeURIComponent(planId)}`;
  return { html: base, pdf: `${base}.pdf` };
}
