import type { PrismaClient } from '@expedition/db';
import type { PolicyTokens } from '@expedition/fulfillment';
import type { Locale } from '@expedition/i18n';
import {
  ASSISTANCE,
  howToClaim,
  illustrativeContactsNote,
  loadPolicyView,
  renderCertificate,
} from '@expedition/policy-documents';
import type { PolicyDocuments } from './policy-mail-worker';

/**
 * The policy mail's documents from libs/policy-documents: the same read model, certificate and assistance facts as
 * the policy page and the JSON look-up, in the policy's language (the certificate in the one recorded on its quote);
 * their links carry the policy's derived access token.
 */
export function policyDocumentsFor(
  prisma: PrismaClient,
  quoteApiUrl: string,
  policyTokens: Pick<PolicyTokens, 'tokenFor'>,
): PolicyDocuments {
  return {
    load: (policyId) => loadPolicyView(prisma, { policyId }, { quoteApiUrl, policyTokens }),
    certificate: (policy) => renderCertificate(policy),
    assistance: (locale: Locale) => ({
      provider: ASSISTANCE.provider,
      emergencyLine: ASSISTANCE.emergencyLine,
      careEmail: ASSISTANCE.careEmail,
      howToClaim: howToClaim(locale),
      illustrativeNote: illustrativeContactsNote(locale),
    }),
  };
}
