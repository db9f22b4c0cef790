import type { PrismaClient } from '@expedition/db';
import type { PolicyTokens } from '@expedition/fulfillment';
import {
  ASSISTANCE,
  HOW_TO_CLAIM,
  ILLUSTRATIVE_CONTACTS_NOTE,
  loadPolicyView,
  renderCertificate,
} from '@expedition/policy-documents';
import type { PolicyDocuments } from './policy-mail-worker';

/** The policy mail's documents from libs/policy-documents: the same read model, certificate and assistance facts as
 * the policy page and the JSON look-up; their links carry the policy's derived access token. */
export function policyDocumentsFor(prisma: PrismaClient, quoteApiUrl: string, policyTokens: Pick<PolicyTokens, 'tokenFor'>): PolicyDocuments {
  return {
    load: (policyId) => loadPolicyView(prisma, { policyId }, { quoteApiUrl, policyTokens }),
    certificate: renderCertificate,
    assistance: {
      provider: ASSISTANCE.provider,
      emergencyLine: ASSISTANCE.emergencyLine,
      careEmail: ASSISTANCE.careEmail,
      howToClaim: HOW_TO_CLAIM,
      illustrativeNote: ILLUSTRATIVE_CONTACTS_NOTE,
    },
  };
}
