import type { PolicyLookup } from '@expedition/contracts';
import type { MailAttachment, OutgoingMail } from '@expedition/mail';
import { CONFIRMATION_TEXTS as T } from './confirmation-mail.texts';

/** The emergency and claims facts the mail prints (libs/policy-documents' assistance module). */
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

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
/** `2027-01-10` → `10 January 2027` (dates for people; the policy's days are UTC calendar days). */
export const dayForPeople = (isoDay: string) => DAY.format(new Date(`${isoDay}T00:00:00Z`));
export const moneyForPeople = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);

export const certificateFilename = (policyNumber: string) => `certificate-${policyNumber.replace(/[^A-Za-z0-9-]/g, '')}.pdf`;

/** The facts table, as label/value pairs (the same rows in the text and the HTML part). */
function facts(p: PolicyLookup): [string, string][] {
  const cover = p.trip.startDate
    ? T.coverDates(dayForPeople(p.trip.startDate), p.trip.endDate ? dayForPeople(p.trip.endDate) : '—')
    : T.coverStartsOnDeparture;
  const who = p.travelers.names?.length ? p.travelers.names.join(', ') : T.travelerCount(p.travelers.count);
  const ages = p.travelers.ages.length ? `; ${T.ages(p.travelers.ages.join(', '))}` : '';
  return [
    [T.labels.policyNumber, p.policyNumber],
    [T.labels.plan, p.plan.planName],
    ...(p.plan.carrier ? [[T.labels.carrier, p.plan.carrier] as [string, string]] : []),
    [T.labels.destination, p.trip.destination],
    [T.labels.cover, cover],
    [T.labels.travelers, `${who}${ages}`],
    [T.labels.premium, moneyForPeople(p.premiumCents, p.currency)],
  ];
}

/** The confirmation e-mail of one issued policy: subject, plain text, HTML (inline styles, tables) and the PDF. */
export function renderConfirmationMail(input: ConfirmationInput): OutgoingMail {
  const { policy: p, assistance: a } = input;
  const test = p.mode === 'test';
  const filename = certificateFilename(p.policyNumber);
  const attachment: MailAttachment = { filename, content: input.certificate, contentType: 'application/pdf' };
  return {
    to: input.recipient,
    subject: T.subject(p.policyNumber, test),
    text: text(input, filename),
    html: html(input, filename),
    attachments: [attachment],
    messageId: input.messageId,
  };
  function text(i: ConfirmationInput, file: string): string {
    const lines = [
      ...(test ? [T.testBanner, ''] : []),
      T.greeting,
      '',
      ...facts(p).map(([k, v]) => `${k}: ${v}`),
      '',
      T.certificateAttached(file),
      '',
      T.policyLinkIntro,
      i.policyUrl,
      T.keepPrivate,
      '',
      T.emergencyHeading.toUpperCase(),
      T.emergencyCall(a.provider),
      a.emergencyLine.display,
      '',
      T.claimsHeading.toUpperCase(),
      ...a.howToClaim.map((step, n) => `${n + 1}. ${step}`),
      '',
      a.illustrativeNote,
      '',
      T.questions(a.careEmail, p.policyNumber),
      '',
      '-- ',
      T.footer,
    ];
    return lines.join('\n');
  }
}

function html(input: ConfirmationInput, filename: string): string {
  const { policy: p, assistance: a } = input;
  const test = p.mode === 'test';
  const cell = 'padding:6px 12px 6px 0;vertical-align:top;font-size:15px;';
  const rows = facts(p)
    .map(([k, v]) => `<tr><td style="${cell}color:#52606d;white-space:nowrap">${esc(k)}</td><td style="${cell}color:#14212b"><strong>${esc(v)}</strong></td></tr>`)
    .join('');
  const banner = test
    ? `<tr><td style="padding:12px 24px;background:#fff4ce;color:#5c4400;font-size:14px;font-weight:bold">${esc(T.testBanner)}</td></tr>`
    : '';
  const steps = a.howToClaim.map((s) => `<li style="margin:0 0 8px">${esc(s)}</li>`).join('');
  const p16 = 'margin:0 0 16px;font-size:15px;line-height:1.5;color:#14212b';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(T.subject(p.policyNumber, test))}</title></head>
<body style="margin:0;padding:0;background:#f4f7fa;font-family:Arial,Helvetica,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f7fa"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px">
${banner}
<tr><td style="padding:24px">
<h1 style="margin:0 0 8px;font-size:22px;color:#0b5cad">${esc(T.heading(p.policyNumber))}</h1>
<p style="${p16}">${esc(T.greeting)}</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px">${rows}</table>
<p style="${p16}">${esc(T.certificateAttached(filename))}</p>
<p style="${p16}">${esc(T.policyLinkIntro)}</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 8px"><tr><td style="background:#0b5cad;border-radius:6px">
<a href="${esc(input.policyUrl)}" style="display:inline-block;padding:12px 20px;color:#ffffff;font-weight:bold;text-decoration:none;font-size:15px">${esc(T.policyLinkLabel)}</a>
</td></tr></table>
<p style="margin:0 0 24px;font-size:13px;color:#52606d">${esc(T.keepPrivate)}</p>
<h2 style="margin:0 0 8px;font-size:17px;color:#8a1c12">${esc(T.emergencyHeading)}</h2>
<p style="${p16}">${esc(T.emergencyCall(a.provider))}<br><a href="tel:${esc(a.emergencyLine.e164)}" style="font-size:20px;font-weight:bold;color:#8a1c12">${esc(a.emergencyLine.display)}</a></p>
<h2 style="margin:0 0 8px;font-size:17px;color:#14212b">${esc(T.claimsHeading)}</h2>
<ol style="margin:0 0 16px;padding-left:20px;font-size:15px;line-height:1.5;color:#14212b">${steps}</ol>
<p style="margin:0 0 16px;font-size:13px;color:#52606d">${esc(a.illustrativeNote)}</p>
<p style="${p16}">${esc(T.questions(a.careEmail, p.policyNumber))}</p>
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e1e7ec;font-size:12px;color:#52606d">${esc(T.footer)}</td></tr>
</table></td></tr></table></body></html>`;
}
