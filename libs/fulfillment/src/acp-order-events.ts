import { randomUUID } from 'node:crypto';
import type { AcpOrderEvent } from '@expedition/contracts';
import { storedDocumentUrl } from './policy-links';

/**
 * The ACP `order_create` event of a sale (docs/acp.md, "Order webhooks"), queued by the statement that issues the
 * policy: exactly once with the sale, never without it. Its `checkout_session_id` is filled in by that statement,
 * from the ACP session that quoted the trip, and the row is written only when that session's agent key has a webhook
 * URL (the statement's `acp_order_event` part). The permalink is stored without the policy's access token; the dispatcher adds it when sending.
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
        // Filled by the issuing statement (fulfillment-sql.ts, acp_order_event).
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
