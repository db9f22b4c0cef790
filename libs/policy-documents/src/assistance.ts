/**
 * Emergency assistance, claims and cancellation: the ONE source of these facts for every document a policyholder
 * reads (certificate, policy page, policy wording, confirmation e-mail). Change them here and every document follows.
 *
 * ILLUSTRATIVE: the carriers in the catalog are invented (libs/domain-pricing carriers.catalog.ts), and so are these
 * contacts. The phone numbers are in the 555-0100…0199 range the North American Numbering Plan reserves for fiction,
 * and the addresses are under `.example`, a top-level domain reserved for examples (RFC 2606): none reaches anyone.
 * The rules (cooling-off, claim deadline) are the ones docs/decisions.md documents.
 */

/** One phone line, as printed for people and as a `tel:` link. */
export interface PhoneLine {
  readonly label: string;
  /** For people: `+1 202 555 0147`. */
  readonly display: string;
  /** For `tel:` links: E.164 without spaces. */
  readonly e164: string;
}

export const ASSISTANCE = {
  /** Everything in this object is invented: documents say so next to it. */
  illustrative: true,
  provider: 'Expedition Assistance',
  emergencyLine: {
    label: '24-hour emergency assistance (worldwide, reverse charges accepted)',
    display: '+1 202 555 0147',
    e164: '+12025550147',
  } satisfies PhoneLine,
  satellitePhoneNote: 'From a ship or a satellite phone, call the same number; the operator asks for your policy number.',
  claimsEmail: 'claims@expedition-insurance.example',
  /** Questions, changes and cancellation requests (there is no self-service cancellation). */
  careEmail: 'care@expedition-insurance.example',
} as const;

/** Printed next to the contacts on every document, in every mode: the contacts are invented, like the carriers. */
export const ILLUSTRATIVE_CONTACTS_NOTE =
  'Illustrative contacts: this platform\'s carriers are invented, and these numbers and addresses are reserved for ' +
  'examples and reach no one.';

/** Days after issue in which a policy can be cancelled for a full refund, if cover has not started (decisions.md). */
export const COOLING_OFF_DAYS = 14;
/** Days after the loss (or the return home) in which a claim is sent (decisions.md). */
export const CLAIM_DEADLINE_DAYS = 90;

/** What to do in an emergency and how to claim, in order. */
export const HOW_TO_CLAIM: readonly string[] = [
  `In an emergency, call ${ASSISTANCE.provider} first on ${ASSISTANCE.emergencyLine.display}, at any hour, before you pay for treatment, ` +
    'evacuation or a flight home where you can: the assistance team arranges and pays providers directly and confirms what is covered.',
  'Keep every receipt and document: medical reports, invoices, the tour operator\'s cancellation notice, police reports for theft.',
  `Send your claim with your policy number and those documents to ${ASSISTANCE.claimsEmail} within ${CLAIM_DEADLINE_DAYS} days of the ` +
    'loss or of your return home. The claims team answers by e-mail.',
];

/** The cooling-off and cancellation rule, as printed on the certificate, the policy page and the wording. */
export const CANCELLATION_RULE =
  `You can cancel this policy within ${COOLING_OFF_DAYS} days of the day it was issued, as long as cover has not started ` +
  'and no claim has been made, and get the whole premium back. After that, or once cover has started, the premium is ' +
  `not refunded. Cancellation is not done online: e-mail ${ASSISTANCE.careEmail} with your policy number and we ` +
  'reply by e-mail.';
