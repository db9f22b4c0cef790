import type { Locale } from '@expedition/i18n';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { PaymentChannel, PrismaClient } from '@expedition/db';
import {
  createFulfillment,
  createPolicyTokens,
  DEV_POLICY_TOKEN_SECRET,
  type Fulfillment,
  type FulfillmentDeps,
} from '@expedition/fulfillment';
import type { Clock } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';
import { antarcticaTrip } from './fixtures';
import { silentLogger } from './harness';

/** quote-api's address in the policy links the tests' mails and events carry. */
export const QUOTE_API = 'https://quote.expedition.test';
/** The policy links' access tokens, signed with the development secret. */
export const DEV_TOKENS = createPolicyTokens({ secret: DEV_POLICY_TOKEN_SECRET });

/** Fulfillment as these tests sell with it: the simulated processor, refunds that never run; links to `quoteApiUrl`. */
export function testFulfillment(prisma: PrismaClient, clock: Clock, quoteApiUrl?: string): Fulfillment {
  return createFulfillment({
    prisma,
    clock,
    logger: silentLogger,
    processorName: 'simulated',
    ...(quoteApiUrl ? { quoteApiUrl } : {}),
    refunds: { refund: async () => 'not_pending', sweep: async () => 0 } as unknown as FulfillmentDeps['refunds'],
  });
}

/** A real SMTP server in the test process: every accepted message, parsed. `hold(n)` never answers message n. */
export interface TestSmtp {
  url: string;
  port: number;
  mails: ParsedMail[];
  /** Messages whose DATA arrived, accepted or not (a held one included). */
  arrived: number;
  close(): Promise<void>;
}

export async function startSmtp(options: { hold?: (n: number) => boolean } = {}): Promise<TestSmtp> {
  const state = { mails: [] as ParsedMail[], arrived: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const n = ++state.arrived;
        if (options.hold?.(n)) return; // never accepted: the sender waits until it dies
        void simpleParser(Buffer.concat(chunks)).then((mail) => {
          state.mails.push(mail);
          done();
        }, done);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    get mails() {
      return state.mails;
    },
    get arrived() {
      return state.arrived;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text of a PDF, through poppler's pdftotext (what a person's PDF reader would show). */
export function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdf-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Sale {
  policyId: string;
  policyNumber: string;
  quoteId: string;
}

/**
 * One sale through the real fulfillment, as a channel records it: a quote (with the address the channel collected on
 * it, if any) and, for checkout links, the link with the address typed on its page.
 */
export async function sell(
  deps: { prisma: PrismaClient; clock: Clock; fulfillment: Fulfillment },
  channel: PaymentChannel,
  addresses: { quote?: string; link?: string; locale?: Locale } = {},
): Promise<Sale> {
  const { prisma, clock } = deps;
  const { quote, estimates } = await createQuoteService({ prisma, clock }).create({
    source: channel === 'embed' ? 'embed' : 'api',
    ...antarcticaTrip,
    email: addresses.quote ?? null,
    ...(addresses.locale ? { locale: addresses.locale } : {}),
  });
  const estimate = estimates[0]!;
  const link =
    channel === 'checkout_link'
      ? await prisma.checkoutSession.create({
          data: {
            tokenHash: randomBytes(32).toString('hex'),
            quoteId: quote.id,
            planId: estimate.planId,
            premiumCents: estimate.premiumCents,
            email: addresses.link ?? null,
            expiresAt: new Date(clock.now().getTime() + 30 * 60_000),
          },
        })
      : null;
  const outcome = await deps.fulfillment.recordSucceededPayment({
    paymentId: `pi_mail_${randomBytes(6).toString('hex')}`,
    amountCents: estimate.premiumCents,
    currency: 'USD',
    mode: 'test',
    quoteId: quote.id,
    planId: estimate.planId,
    channel,
    ...(link ? { checkoutSessionId: link.id } : {}),
  });
  if (outcome.kind !== 'policy_issued') throw new Error(`expected a policy, got ${outcome.kind}`);
  return { policyId: outcome.policyId, policyNumber: outcome.policyNumber, quoteId: quote.id };
}
