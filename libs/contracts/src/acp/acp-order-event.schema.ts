import { z } from 'zod';

/**
 * The order events we POST to an agent platform's webhook (the protocol's `openapi.agentic_checkout_webhook.yaml`,
 * release 2026-04-17: `WebhookEvent` whose `data` is the full `Order`). Ours is the protocol's shape narrowed to what
 * we send: one `order_create` per ACP sale, the moment the policy is issued (docs/acp.md, "Order webhooks").
 */

/** Attempts per order event before it is marked failed (first try included). */
export const ACP_ORDER_EVENT_MAX_ATTEMPTS = 5;

export const AcpOrderEventTypeSchema = z.enum(['order_create']);

const Cents = z.number().int().min(0).max(100_000_000);

const AcpOrderTotalSchema = z
  .object({ type: z.enum(['subtotal', 'total']), display_text: z.string(), amount: Cents })
  .strict();

export const AcpOrderEventSchema = z
  .object({
    type: AcpOrderEventTypeSchema,
    data: z
      .object({
        type: z.literal('order'),
        id: z.string().regex(/^ord_/),
        checkout_session_id: z.string().min(1),
        order_number: z.string().min(1).meta({ description: 'The policy number.' }),
        permalink_url: z
          .url()
          .meta({ description: "The certificate of insurance (PDF); the policy's access token rides in it." }),
        status: z.literal('confirmed'),
        line_items: z
          .array(
            z
              .object({
                id: z.string(),
                title: z.string(),
                product_id: z.string().meta({ description: 'The planId.' }),
                quantity: z.object({ ordered: z.literal(1), current: z.literal(1), fulfilled: z.literal(1) }).strict(),
                unit_price: Cents,
                subtotal: Cents,
                status: z.literal('fulfilled'),
              })
              .strict(),
          )
          .length(1),
        totals: z.array(AcpOrderTotalSchema),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'AcpOrderEvent' });
export type AcpOrderEvent = z.infer<typeof AcpOrderEventSchema>;
