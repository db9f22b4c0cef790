/**
 * Baseline for POST /api/v1/quotes: a bare Express route with `pg` doing the same writes as quote creation — one
 * quote row and its estimate rows (priced once at start-up, the same plans and figures) in one transaction — and
 * answering with JSON. No validation, no pricing, no ORM: what the database work alone costs over HTTP. Both inserts
 * are named, so each connection prepares them once, as ours is (`prepared()` in libs/db).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import express from 'express';
import type { Pool } from 'pg';
import type { PricedQuote } from '@expedition/domain-pricing';

export function createBareQuoteApp(pool: Pool, pricing: PricedQuote): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json());
  app.post('/api/v1/quotes', async (req, res) => {
    const body = req.body as { travelers?: number; residence?: string; tripCost?: number };
    const id = randomUUID();
    const quoteNumber = `EXP-${randomBytes(6).toString('hex')}`;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const quote = await client.query({
        name: 'bare_quote',
        text: `INSERT INTO quotes (id, quote_number, session_id_hash, source, destination_slug, duration_days, trip_cost_cents,
           currency, travelers, traveler_ages, residence, recommended_plan_id, expires_at, updated_at)
         VALUES ($1, $2, $3, 'api', $4, $5, $6, $7, $8, $9, $10, $11, now() + interval '30 days', now())
         RETURNING id, quote_number, created_at`,
        values: [
          id,
          quoteNumber,
          randomBytes(32).toString('hex'),
          pricing.destination.slug,
          pricing.durationDays,
          Math.round((body.tripCost ?? 0) * 100),
          pricing.currency,
          body.travelers ?? 1,
          pricing.travelerAges.map((a) => a ?? 0),
          body.residence ?? 'GB',
          pricing.recommendedPlanId,
        ],
      });
      const values: unknown[] = [];
      const rows = pricing.estimates.map((e, rank) => {
        const n = values.length;
        values.push(
          randomUUID(),
          id,
          e.planId,
          e.premiumCents,
          pricing.currency,
          [...e.travelerPremiumsCents],
          e.confidence,
          e.isRecommended,
          rank,
          e.notes,
          e.cfarEligible,
        );
        return `(${Array.from({ length: 11 }, (_, i) => `$${n + i + 1}`).join(', ')})`;
      });
      const estimates = await client.query({
        name: `bare_estimates_${rows.length}`,
        text: `INSERT INTO quote_estimates (id, quote_id, plan_id, premium_cents, currency, traveler_premiums_cents,
           confidence, is_recommended, rank, notes, cfar_eligible)
         VALUES ${rows.join(', ')} RETURNING plan_id, premium_cents, rank`,
        values,
      });
      await client.query('COMMIT');
      res.json({ quoteId: quote.rows[0].id, quoteNumber: quote.rows[0].quote_number, estimates: estimates.rows });
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      res.status(500).json({ error: String(err) });
    } finally {
      client.release();
    }
  });
  return app;
}
