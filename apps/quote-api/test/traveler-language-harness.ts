import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import request from 'supertest';
import { PurchaseReceiptSchema } from '@expedition/contracts';
import { buyByMachinePayment, lookUpPolicy } from './bought-policy';
import { createHarness, PUBLIC_URL, type Harness } from './harness';

/**
 * What the traveler's-language specs share (issue 22: the quote records the language at creation — `locale`, else
 * Accept-Language, by language, else English — and the policy page, the certificate and the policy wording are
 * written in it): a harness, a policy bought in a given language, binary downloads and pdftotext. `h` is live: set by
 * the hooks `useTravelerLanguageHarness()` registers.
 */
export const PDFTOTEXT = '/usr/bin/pdftotext';
export const hasPdftotext = existsSync(PDFTOTEXT);
export const pdfText = (pdf: Buffer) =>
  execFileSync(PDFTOTEXT, ['-layout', '-', '-'], { input: pdf }).toString('utf8').replace(/\s+/g, ' ');

export let h: Harness;

/** Registers the file's hooks: one harness for the file. */
export function useTravelerLanguageHarness(): void {
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());
}

export const binary = (path: string) =>
  request(h.app)
    .get(path.replace(PUBLIC_URL, ''))
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

export const storedLocale = async (quoteId: string) =>
  (await h.db.prisma.quote.findUniqueOrThrow({ where: { id: quoteId } })).locale;

let counter = 0;
export async function policyBoughtIn(locale: string) {
  const { purchase } = await buyByMachinePayment(h.app, `spt_test_success_lang_${++counter}`, { locale });
  return lookUpPolicy(h.app, PurchaseReceiptSchema.parse(purchase.body));
}
