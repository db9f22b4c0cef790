import { LOCALES } from '@expedition/i18n';
import { certificateContentDisposition, certificateFileName } from './certificate-file-name';

/** The certificate's file name in the policy's language (issue 22), for the e-mail attachment and the download. */
describe("the certificate's file name", () => {
  it.each([
    ['en', 'certificate-POL-2027-ABCDEF.pdf', 'certificate-POL-2027-ABCDEF.pdf'],
    ['de', 'Versicherungsbestätigung-POL-2027-ABCDEF.pdf', 'Versicherungsbestaetigung-POL-2027-ABCDEF.pdf'],
    ['fr', 'attestation-d’assurance-POL-2027-ABCDEF.pdf', 'attestation-d-assurance-POL-2027-ABCDEF.pdf'],
    ['es', 'certificado-de-seguro-POL-2027-ABCDEF.pdf', 'certificado-de-seguro-POL-2027-ABCDEF.pdf'],
  ] as const)('is named in %s: %s, or %s in ASCII', (locale, utf8, ascii) => {
    expect(certificateFileName('POL-2027-ABCDEF', locale)).toEqual({ utf8, ascii });
  });

  it('is ASCII-safe in every language, whatever the policy number holds', () => {
    for (const locale of LOCALES) {
      const { ascii } = certificateFileName('POL-2027/../"x"\r\n', locale);
      expect(ascii).toMatch(/^[A-Za-z0-9.-]+-POL-2027x\.pdf$/);
    }
  });

  it('goes in Content-Disposition as an ASCII filename and an RFC 6266 filename* in UTF-8', () => {
    expect(certificateContentDisposition('POL-2027-ABCDEF', 'de')).toBe(
      'inline; filename="Versicherungsbestaetigung-POL-2027-ABCDEF.pdf"; ' +
        "filename*=UTF-8''Versicherungsbest%C3%A4tigung-POL-2027-ABCDEF.pdf",
    );
    expect(certificateContentDisposition('POL-2027-ABCDEF', 'fr', 'attachment')).toBe(
      'attachment; filename="attestation-d-assurance-POL-2027-ABCDEF.pdf"; ' +
        "filename*=UTF-8''attestation-d%E2%80%99assurance-POL-2027-ABCDEF.pdf",
    );
    expect(certificateContentDisposition('POL-2027-ABCDEF', 'en')).toBe(
      'inline; filename="certificate-POL-2027-ABCDEF.pdf"; filename*=UTF-8\'\'certificate-POL-2027-ABCDEF.pdf',
    );
    // Decoded, filename* gives the name back.
    const star = /filename\*=UTF-8''(.+)$/.exec(certificateContentDisposition('POL-1', 'es'))![1]!;
    expect(decodeURIComponent(star)).toBe(certificateFileName('POL-1', 'es').utf8);
  });
});
