/**
 * Baseline for the dispatcher's delivery: a hand-written worker with `pg` and `node:http` doing the same work per
 * round as ours — claim a batch (the same statement: due rows, FOR UPDATE SKIP LOCKED, the lease, the attempt number,
 * the operator's URL read in the same statement), sign each body (HMAC-SHA256 over `t.body`, one `v1=`), POST it
 * with keep-alive, and record the round (the same data-modifying statement: fenced status update + one attempt row
 * each). Both statements are named, so each connection prepares them once, as ours are (`prepared()` in libs/db).
 * No ORM, no tracing, no metrics, no logging, no sealed secrets (the secret is known in plain), no pipelining: what
 * the database and HTTP work of a delivery cost when written by hand.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { Pool } from 'pg';

interface Claimed {
  id: string;
  event_id: string;
  payload: unknown;
  attempts: number;
  /** As text: handed back to the record statement exactly as read (the fence). */
  locked_until: string;
  webhook_url: string;
}

const CLAIM = `
  WITH claimed AS (
    UPDATE webhook_events AS t
    SET attempts = CASE WHEN t.locked_until IS NULL THEN t.attempts + 1 ELSE t.attempts END,
        locked_until = $1::timestamp(3)
    FROM (
      SELECT id FROM webhook_events
      WHERE status = 'pending' AND next_attempt_at <= $2::timestamp(3)
        AND (locked_until IS NULL OR locked_until < $2::timestamp(3))
      ORDER BY next_attempt_at
      LIMIT $3::int
      FOR UPDATE SKIP LOCKED
    ) AS due
    WHERE t.id = due.id
    RETURNING t.id, t.event_id, t.operator_id, t.payload, t.attempts, t.locked_until
  )
  SELECT c.id, c.event_id, c.payload, c.attempts, c.locked_until::text AS locked_until, o.webhook_url
  FROM claimed AS c JOIN operators AS o ON o.id = c.operator_id`;

const RECORD = `
  WITH outcome AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS o(
      id text, locked_until timestamp(3), delivered_at timestamp(3), attempt_id text, attempt_number int,
      started_at timestamp(3), duration_ms int, status_code int)
  ),
  moved AS (
    UPDATE webhook_events AS e
    SET status = 'delivered', delivered_at = o.delivered_at, locked_until = NULL, last_error = NULL
    FROM outcome AS o
    WHERE e.id = o.id AND e.status = 'pending' AND e.locked_until = o.locked_until
    RETURNING e.id
  )
  INSERT INTO webhook_attempts (id, webhook_event_id, attempt_number, started_at, duration_ms, status_code, created_at)
  SELECT o.attempt_id, o.id, o.attempt_number, o.started_at, o.duration_ms, o.status_code, now()
  FROM outcome AS o JOIN moved ON moved.id = o.id`;

export interface BareDelivery {
  /** Runs `workers` loops of claim → sign → POST → record until a claim comes back empty; resolves when all stop. */
  drain(workers: number): Promise<void>;
  close(): void;
}

export function createBareDelivery(pool: Pool, options: { batch: number; leaseMs: number; secret: string }) {
  const agent = new Agent({ keepAlive: true });

  function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), ...headers },
      });
      req.once('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  async function round(): Promise<number> {
    const now = new Date();
    const { rows } = await pool.query<Claimed>({
      name: 'bare_claim',
      text: CLAIM,
      values: [new Date(now.getTime() + options.leaseMs), now, options.batch],
    });
    if (rows.length === 0) return 0;
    const startedAt = new Date();
    const t = Math.floor(startedAt.getTime() / 1000);
    const outcomes = await Promise.all(
      rows.map(async (row) => {
        const body = JSON.stringify(row.payload);
        const signature = createHmac('sha256', options.secret).update(`${t}.${body}`).digest('hex');
        const started = performance.now();
        const status = await post(row.webhook_url, body, {
          'X-SVC-Signature': `t=${t},v1=${signature}`,
          'X-SVC-Event-Id': row.event_id,
        });
        return {
          id: row.id,
          locked_until: row.locked_until,
          delivered_at: new Date(),
          attempt_id: randomUUID(),
          attempt_number: row.attempts,
          started_at: startedAt,
          duration_ms: Math.round(performance.now() - started),
          status_code: status,
        };
      }),
    );
    await pool.query({ name: 'bare_record', text: RECORD, values: [JSON.stringify(outcomes)] });
    return rows.length;
  }

  return {
    async drain(workers: number) {
      const loop = async () => {
        while ((await round()) > 0);
      };
      await Promise.all(Array.from({ length: workers }, loop));
    },
    close: () => agent.destroy(),
  } satisfies BareDelivery;
}
