/** Where a policy holder reads their policy: every link is served by quote-api and opened by the access token. */
export interface PolicyLinks {
  /** `GET` with `Authorization: Bearer <accessToken>`: the policy as JSON. */
  lookupUrl: string;
  /** The certificate of insurance (PDF); the token rides in the URL so a person can open it from a receipt. */
  documentUrl: string;
  /** The policy page for people (HTML): status, cover, documents, emergency and claims; the token rides in the URL. */
  pageUrl: string;
}

export function policyLinks(quoteApiUrl: string, policy: { policyNumber: string; accessToken: string }): PolicyLinks {
  const origin = quoteApiUrl.replace(/\/$/, '');
  return {
    lookupUrl: policyUrl(quoteApiUrl, policy.policyNumber),
    documentUrl: withAccessToken(storedDocumentUrl(quoteApiUrl, policy.policyNumber), policy.accessToken),
    pageUrl: `${origin}/policies/${encodeURIComponent(policy.policyNumber)}?access_token=${encodeURIComponent(policy.accessToken)}`,
  };
}

/**
 * The certificate link as it is stored (the `policy.issued` outbox row, an ACP order, a cached receipt): without its
 * token, which is derived again whenever the link is handed out (policy-tokens.ts).
 */
export function storedDocumentUrl(quoteApiUrl: string, policyNumber: string): string {
  return `${policyUrl(quoteApiUrl, policyNumber)}/certificate.pdf`;
}

function policyUrl(quoteApiUrl: string, policyNumber: string): string {
  return `${quoteApiUrl.replace(/\/$/, '')}/api/v1/policies/${encodeURIComponent(policyNumber)}`;
}

/** A certificate link with this token in `access_token` (replacing any token it carried). */
export function withAccessToken(url: string, accessToken: string): string {
  return `${withoutAccessToken(url)}?access_token=${encodeURIComponent(accessToken)}`;
}

/** A certificate link without its `access_token` (our links carry no other query). */
export function withoutAccessToken(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
