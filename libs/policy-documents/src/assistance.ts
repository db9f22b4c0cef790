/**
 * Emergency assistance, claims and cancellation: the ONE source of these facts for every document a policyholder
 * reads (certificate, policy page, policy wording, confirmation e-mail). Change them here and every document follows.
 *
 * ILLUSTRATIVE: the carriers in the catalog are invented (libs/domain-pricing carriers.catalog.ts), and so are these
 * contacts. The phone numbers are in the 555-0100…0199 range the North American Numbering Plan reserves for fiction,
 * and the addresses are under `.example`, a top-level domain reserved for examples (RFC 2606): none reaches anyone.
 * The rules (cooling-off, claim deadline) are the ones docs/decisions.md documents.
 *
 * The sentences come from the documents catalog (libs/i18n/messages/documents): one per language; the constants below
 * are the English ones, the functions take the reader's language.
 */
import { documentsMessages } from '@expedition/i18n/documents';
import type { RenderLocale } from '@expedition/i18n';

/** One phone line, as printed for people and as a `tel:` link. */
export interface PhoneLine {
  readonly label: string;
  /** For people: `+1 202 555 0147`. */
  readonly display: string;
  /** For `tel:` links: E.164 without spaces. */
  readonly e164: string;
}

const en = documentsMessages('en').assistance;

export const ASSISTANCE = {
  /** Everything in this object is invented: documents say so next to it. */
  illustrative: true,
  provider: 'Expedition Assistance',
  emergencyLine: {
    label: en.emergencyLine(),
    display: '+1 202 555 0147',
    e164: '+12025550147',
  } satisfies PhoneLine,
  satellitePhoneNote: en.satellitePhone(),
  claimsEmail: 'claims@expedition-insurance.example',
  /** Questions, changes and cancellation requests (there is no self-service cancellation). */
  careEmail: 'care@expedition-insurance.example',
} as const;

/** Days after issue in which a policy can be cancelled for a full refund, if cover has not started (decisions.md). */
export const COOLING_OFF_DAYS = 14;
/** Days after the loss (or the return home) in which a claim is sent (decisions.md). */
export const CLAIM_DEADLINE_DAYS = 90;

/** The emergency line's label in the reader's language. */
export const emergencyLineLabel = (locale: RenderLocale) => documentsMessages(locale).assistance.emergencyLine();

/** How to call from a ship or a satellite phone, in the reader's language. */
export const satellitePhoneNote = (locale: RenderLocale) => documentsMessages(locale).assistance.satellitePhone();

/** Printed next to the contacts on every document, in every mode: the contacts are invented, like the carriers. */
export const illustrativeContactsNote = (locale: RenderLocale) =>
  documentsMessages(locale).assistance.illustrativeContacts();

/** What to do in an emergency and how to claim, in order. */
export function howToClaim(locale: RenderLocale): readonly string[] {
  const m = documentsMessages(locale).assistance;
  return [
    m.claimStepCall({ provider: ASSISTANCE.provider, phone: ASSISTANCE.emergencyLine.display }),
    m.claimStepKeep(),
    m.claimStepSend({ email: ASSISTANCE.claimsEmail, days: CLAIM_DEADLINE_DAYS }),
  ];
}

/** The cooling-off and cancellation rule, as printed on the certificate, the policy page and the wording. */
export const cancellationRule = (locale: RenderLocale) =>
  documentsMessages(locale).assistance.cancellationRule({ days: COOLING_OFF_DAYS, email: ASSISTANCE.careEmail });
