import type { PolicyLookup } from '@expedition/contracts';
import { formatMoney } from '@expedition/contracts/rules';
import type { MailAttachment, OutgoingMail } from '@expedition/mail';
import { asLocale, formatDay, type Locale } from '@expedition/i18n';
import { mailMessages, type MailMessages } from '@expedition/i18n/documents';
import { carrierName, certificateFileName, destinationName } from '@expedition/policy-documents';

/** The emergency and claims facts the mail prints, in its language (libs/policy-documents' assistance module). */
export interface MailAssistance {
  provider: string;
  emergencyLine: { display: string; e164: string };
  careEmail: string;
  howToClaim: readonly string[];
  /** Printed next to the contacts: they are illustrative, like the carriers. */
  illustrativeNote: string;
}

export interface ConfirmationInput {
  policy: PolicyLookup;
  recipient: string;
  /** The policy page (`GET /policies/{n}?access_token=…` on quote-api), opened by the policy's access token. */
  policyUrl: string;
  certificate: Buffer;
  assistance: MailAssistance;
  messageId: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** `2027-01-10` → `10 January 2027` / `10. Januar 2027` (the policy's days are UTC calendar days). */
export const dayForPeople = (isoDay: string, locale: Locale = 'en') => formatDay(isoDay, locale);

/** The facts table, as label/value pairs (the same rows in the text and the HTML part). */
function facts(p: PolicyLookup, locale: Locale): [string, string][] {
  const T = mailMessages(locale).confirmation;
  const cover = p.trip.startDate
    ? T.coverDates({
        start: dayForPeople(p.trip.startDate, locale),
        end: p.trip.endDate ? dayForPeople(p.trip.endDate, locale) : '—',
      })
    : T.fromDeparture();
  const who = p.travelers.names?.length ? p.travelers.names.join(', ') : T.travelerCount({ count: p.travelers.count });
  const ages = p.travelers.ages.length ? `; ${T.ages({ ages: p.travelers.ages.join(', ') })}` : '';
  return [
    [T.policyNumber(), p.policyNumber],
    [T.plan(), p.plan.planName],
    ...(p.plan.carrier ? [[T.carrier(), carrierName(p.plan.carrier, locale)] as [string, string]] : []),
    [T.destination(), destinationName(p.trip.destinationSlug, locale)],
    [T.cover(), cover],
    [T.travelers(), `${who}${ages}`],
    [T.premiumPaid(), formatMoney(p.premiumCents, p.currency, locale)],
  ];
}

/**
 * The confirmation e-mail of one issued policy: subject, plain text, HTML (inline styles, tables) and the PDF, in
 * the language the policy was bought in (`policy.locale`, recorded on its quote; the sentences are libs/i18n's mail
 * namespace, the layout is here).
 */
export function renderConfirmationMail(input: ConfirmationInput): OutgoingMail {
  const { policy: p, assistance: a } = input;
  const locale = asLocale(p.locale);
  const T = mailMessages(locale).confirmation;
  const test = p.mode === 'test';
  // Named in the policy's language, in ASCII (`Versicherungsbestaetigung-POL-….pdf`): every mail client shows it.
  const filename = certificateFileName(p.policyNumber, locale).ascii;
  const attachment: MailAttachment = { filename, content: input.certificate, contentType: 'application/pdf' };
  return {
    to: input.recipient,
    subject: subject(T, p.policyNumber, test),
    text: text(input, filename),
    html: html(input, filename, locale),
    attachments: [attachment],
    messageId: input.messageId,
  };
  function text(i: ConfirmationInput, file: string): string {
    const lines = [
      ...(test ? [T.testBanner(), ''] : []),
      T.greeting(),
      '',
      ...facts(p, locale).map(([k, v]) => `${k}: ${v}`),
      '',
      T.certificateAttached({ filename: file }),
      '',
      T.policyLinkIntro(),
      i.policyUrl,
      T.keepPrivate(),
      '',
      T.emergencyHeading().toLocaleUpperCase(locale),
      T.emergencyCall({ provider: a.provider }),
      a.emergencyLine.display,
      '',
      T.claimsHeading().toLocaleUpperCase(locale),
      ...a.howToClaim.map((step, n) => `${n + 1}. ${step}`),
      '',
      a.illustrativeNote,
      '',
      T.questions({ careEmail: a.careEmail, policyNumber: p.policyNumber }),
      '',
      '-- ',
      T.footer(),
    ];
    return lines.join('\n');
  }
}

/** The subject line; `[TEST]` first for a test policy. */
const subject = (T: MailMessages['confirmation'], policyNumber: string, test: boolean) =>
  test ? T.subjectTest({ policyNumber }) : T.subject({ policyNumber });

function html(input: ConfirmationInput, filename: string, locale: Locale): string {
  const { policy: p, assistance: a } = input;
  const T = mailMessages(locale).confirmation;
  const test = p.mode === 'test';
  const cell = 'padding:6px 12px 6px 0;vertical-align:top;font-size:15px;';
  const rows = facts(p, locale)
    .map(
      ([k, v]) =>
        `<tr><td style="${cell}color:#52606d;white-space:nowrap">${esc(k)}</td><td style="${cell}color:#14212b"><strong>${esc(v)}</strong></td></tr>`,
    )
    .join('');
  const banner = test
    ? `<tr><td style="padding:12px 24px;background:#fff4ce;color:#5c4400;font-size:14px;font-weight:bold">${esc(T.testBanner())}</td></tr>`
    : '';
  const steps = a.howToClaim.map((s) => `<li style="margin:0 0 8px">${esc(s)}</li>`).join('');
  const p16 = 'margin:0 0 16px;font-size:15px;line-height:1.5;color:#14212b';
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(subject(T, p.policyNumber, test))}</title></head>
<body style="margin:0;padding:0;background:#f4f7fa;font-family:Arial,Helvetica,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f7fa"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px">
${banner}
<tr><td style="padding:24px">
<h1 style="margin:0 0 8px;font-size:22px;color:#0b5cad">${esc(T.heading({ policyNumber: p.policyNumber }))}</h1>
<p style="${p16}">${esc(T.greeting())}</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px">${rows}</table>
<p style="${p16}">${esc(T.certificateAttached({ filename }))}</p>
<p style="${p16}">${esc(T.policyLinkIntro())}</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 8px"><tr><td style="background:#0b5cad;border-radius:6px">
<a href="${esc(input.policyUrl)}" style="display:inline-block;padding:12px 20px;color:#ffffff;font-weight:bold;text-decoration:none;font-size:15px">${esc(T.policyLinkLabel())}</a>
</td></tr></table>
<p style="margin:0 0 24px;font-size:13px;color:#52606d">${esc(T.keepPrivate())}</p>
<h2 style="margin:0 0 8px;font-size:17px;color:#8a1c12">${esc(T.emergencyHeading())}</h2>
<p style="${p16}">${esc(T.emergencyCall({ provider: a.provider }))}<br><a href="tel:${esc(a.emergencyLine.e164)}" style="font-size:20px;font-weight:bold;color:#8a1c12">${esc(a.emergencyLine.display)}</a></p>
<h2 style="margin:0 0 8px;font-size:17px;color:#14212b">${esc(T.claimsHeading())}</h2>
<ol style="margin:0 0 16px;padding-left:20px;font-size:15px;line-height:1.5;color:#14212b">${steps}</ol>
<p style="margin:0 0 16px;font-size:13px;color:#52606d">${esc(a.illustrativeNote)}</p>
<p style="${p16}">${esc(T.questions({ careEmail: a.careEmail, policyNumber: p.policyNumber }))}</p>
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e1e7ec;font-size:12px;color:#52606d">${esc(T.footer())}</td></tr>
</table></td></tr></table></body></html>`;
}
