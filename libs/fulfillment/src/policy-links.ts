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
  const number = encodeURIComponent(policy.policyNumber);
  const token = encodeURIComponent(policy.accessToken);
  const base = `${origin}/api/v1/policies/${number}`;
  return {
    lookupUrl: base,
    documentUrl: `${base}/certificate.pdf?access_token=${token}`,
    pageUrl: `${origin}/policies/${number}?access_token=${token}`,
  };
}
