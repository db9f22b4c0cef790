/**
 * What the soak's load needs in the database before it starts: operators embedding the widget (an allowed origin and
 * a test publishable key each, one ready and one pending quote each, created through embed-api as the widget does),
 * and the operator whose policy.issued webhooks go to the parent's loopback receiver (its secret sealed as stored).
 */
import { mintPublishableKey } from '@expedition/auth-publishable-key';
import type { Database } from '@expedition/db';
import type { SecretBox } from '@expedition/operators';
import { pool } from './dispatcher-throughput.helpers';
import { send } from './soak.driver';

/**
 * 100 polls/s over 200 keys is 30 requests a minute per key, half the contract's budget of 60 (one budget per key,
 * docs/contract.md "Limits"): no poll meets a 429.
 */
export const EMBED_OPERATORS = 200;

export interface EmbedOperator {
  key: string;
  origin: string;
  /** Its options are ready (served from the app's cache of ready bodies). */
  readyQuoteId: string;
  /** Never eligible for options: every poll of it reads the database. */
  pendingQuoteId: string;
}

export interface Seeded {
  embed: EmbedOperator[];
  deliveryOperatorId: string;
}

export async function seedSoak(
  db: Database,
  embedUrl: string,
  operators: number,
  secretBox: Pick<SecretBox, 'seal'>,
  webhookUrl: string,
): Promise<Seeded> {
  const delivery = await db.prisma.operator.create({
    data: { name: 'Soak deliveries', status: 'active', commissionRateBps: 1_250, webhookUrl },
  });
  await db.prisma.operator.update({
    where: { id: delivery.id },
    data: { webhookSecret: secretBox.seal('whsec_soak_operator', delivery.id) },
  });

  const keys: { key: string; origin: string }[] = [];
  await pool(
    Array.from({ length: operators }, (_, i) => i),
    4,
    async (i) => {
      const key = mintPublishableKey('test');
      const origin = `https://op${i}.tours.example`;
      await db.prisma.operator.create({
        data: {
          name: `Soak voyages ${i}`,
          status: 'active',
          embeddingEnabled: true,
          allowedOrigins: { create: [{ origin }] },
          publishableKeys: { create: [{ key, mode: 'test' }] },
        },
      });
      keys[i] = { key, origin };
    },
  );
  const embed: EmbedOperator[] = [];
  await pool(keys, 8, async (k) => {
    const readyQuoteId = await createQuote(embedUrl, k, { travelerAges: [45, 52] });
    const pendingQuoteId = await createQuote(embedUrl, k, {});
    embed.push({ ...k, readyQuoteId, pendingQuoteId });
  });
  await waitReady(
    db,
    embed.map((e) => e.readyQuoteId),
  );
  return { embed, deliveryOperatorId: delivery.id };
}

async function createQuote(embedUrl: string, k: { key: string; origin: string }, patch: object): Promise<string> {
  const year = new Date().getUTCFullYear() + 1;
  const res = await send('POST', `${embedUrl}/api/embed/quote`, {
    headers: { 'X-SVC-Publishable-Key': k.key, Origin: k.origin },
    body: JSON.stringify({
      destination: 'Antarctica',
      tripCost: 24000,
      travelers: 2,
      residence: 'GB',
      email: 'soak@example.com',
      startDate: `${year}-01-10`,
      endDate: `${year}-01-24`,
      ...patch,
    }),
  });
  const quoteId = res.status === 200 ? (JSON.parse(res.body) as { quoteId?: string }).quoteId : undefined;
  if (!quoteId) throw new Error(`embed quote creation failed: ${res.status} ${res.body.slice(0, 200)}`);
  return quoteId;
}

/** embed-api's options worker makes them ready (kicked by each creation); at most a minute. */
async function waitReady(db: Database, ids: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await db.prisma.quote.count({ where: { id: { in: ids }, optionsStatus: 'ready' } });
    if (ready === ids.length) return;
    if (Date.now() > deadline) throw new Error(`only ${ready} of ${ids.length} embed quotes became ready`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
