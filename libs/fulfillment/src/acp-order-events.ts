import { randomUUID } from 'node:crypto';
import { Prisma } from '@expedition/db';
import type { AcpOrderEvent } from '@expedition/contracts';
import { storedDocumentUrl } from './policy-links';

/**
 * The ACP `order_create` event of a sale (docs/acp.md, "Order webhooks"), queued by the statement that issues the
 * policy: exactly once with the sale, never without it. Its `checkout_session_id` is filled in by that statement,
 * from the ACP session that quoted the trip, and the row is written only when that session's agent key has a webhook
 * URL. The permalink is stored without the policy's access token; the dispatcher adds it when sending.
 */
export interface AcpOrderEventRow {
  eventId: string;
  payload: AcpOrderEvent;
}

export function acpOrderCreated(input: {
  quoteApiUrl: string;
  policy: { id: string; policyNumber: string };
  planId: string;
  planName: string;
  premiumCents: number;
}): AcpOrderEventRow {
  const { policy, premiumCents } = input;
  return {
    eventId: `evt_${randomUUID()}`,
    payload: {
      type: 'order_create',
      data: {
        type: 'order',
        id: `ord_${policy.id}`,
        // Filled by the issuing statement (acpOrderEventPart).
        checkout_session_id: 'acs_pending',
        order_number: policy.policyNumber,
        permalink_url: storedDocumentUrl(input.quoteApiUrl, policy.policyNumber),
        // The policy is in force and its certificate issued the moment the order exists: nothing left to fulfil.
        status: 'confirmed',
        line_items: [
          {
            id: `li_${input.planId}`,
            title: input.planName,
            product_id: input.planId,
            quantity: { ordered: 1, current: 1, fulfilled: 1 },
            unit_price: premiumCents,
            subtotal: premiumCents,
            status: 'fulfilled',
          },
        ],
        totals: [
          { type: 'subtotal', display_text: 'Premium', amount: premiumCents },
          { type: 'total', display_text: 'Total', amount: premiumCents },
        ],
      },
    },
  };
}

/**
 * The CTE that queues the event: the ACP session of this quote (each session quotes for itself, so there is at most
 * one) joined to its agent key, only when the key has a webhook URL. Nothing is written otherwise.
 */
export function acpOrderEventPart(event: AcpOrderEventRow, quoteId: string, now: Date): Prisma.Sql {
  return Prisma.sql`acp_order_event AS (
    INSERT INTO acp_order_events (id, event_id, agent_key_id, type, checkout_session_id, payload, status, next_attempt_at,
      created_at)
    SELECT ${randomUUID()}, ${event.eventId}, k.id, ${event.payload.type}, s.id,
      jsonb_set(${JSON.stringify(event.payload)}::jsonb, '{data,checkout_session_id}', to_jsonb(s.id)),
      'pending'::webhook_event_status, ${now}::timestamp(3), ${now}::timestamp(3)
    FROM acp_checkout_sessions s JOIN agent_keys k ON k.id = s.agent_key_id
    WHERE s.quote_id = ${quoteId} AND k.webhook_url IS NOT NULL
    ORDER BY s.created_at
    LIMIT 1
  )`;
}
