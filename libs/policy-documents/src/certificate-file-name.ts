import type { Locale } from '@expedition/i18n';
import { documentsMessages } from '@expedition/i18n/documents';

/** Letters ASCII has no room for, spelled the way their language does when it must (German: ä → ae). */
const SPELLED_OUT: Readonly<Record<string, string>> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
};

/**
 * The certificate's file name in the policy's language (libs/i18n `certificate.fileName`):
 * `Versicherungsbestätigung-POL-2026-AB12CD.pdf`, `attestation-d’assurance-….pdf`. `ascii` is the same name for
 * places that take nothing else (an e-mail attachment's name, a download's `filename=`): umlauts spelled out, accents
 * dropped, any other character but a letter, a digit, a dot or a hyphen made a hyphen (`Versicherungsbestaetigung-…`,
 * `attestation-d-assurance-…`). The policy number keeps only its letters, digits and hyphens.
 */
export function certificateFileName(policyNumber: string, locale: Locale): { utf8: string; ascii: string } {
  const utf8 = documentsMessages(locale).certificate.fileName({
    policyNumber: policyNumber.replace(/[^A-Za-z0-9-]/g, ''),
  });
  const ascii = utf8
    .replace(/[äöüÄÖÜß]/g, (c) => SPELLED_OUT[c] ?? c)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9.-]+/g, '-');
  return { utf8, ascii };
}

/**
 * The download's `Content-Disposition` (RFC 6266): the ASCII name in `filename`, for every client, and the name in
 * the policy's language in `filename*` (RFC 8187: UTF-8, percent-encoded), which clients that read it prefer.
 */
export function certificateContentDisposition(
  policyNumber: string,
  locale: Locale,
  disposition: 'inline' | 'attachment' = 'inline',
): string {
  const { utf8, ascii } = certificateFileName(policyNumber, locale);
  const encoded = encodeURIComponent(utf8).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
