/** Where a policy holder reads their policy: both links are served by quote-api and opened by the access token. */
export interface PolicyLinks {
  /** `GET` with `Authorization: Bearer <accessToken>`: the policy as JSON. */
  lookupUrl: string;
  /** The certificate of insurance (PDF); the token rides in the URL so a person can open it from a receipt. */
  documentUrl: string;
}

export function policyLinks(quoteApiUrl: string, policy: { policyNumber: string; accessToken: string }): PolicyLinks {
  const base = `${quoteApiUrl.replace(/\/$/, '')}/api/v1/policies/${encodeURIComponent(policy.policyNumber)}`;
  return {
    lookupUrl: base,
    documentUrl: `${base}/certificate.pdf?access_token=${encodeURIComponent(policy.accessToken)}`,
  };
}
