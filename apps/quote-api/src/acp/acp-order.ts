import type { AcpOrder } from '@expedition/contracts';
import { withAccessToken, withoutAccessToken, type PolicyTokens } from '@expedition/fulfillment';

/**
 * An order's `permalink_url` is the policy's certificate link, which carries the policy's access token. It is stored
 * without the token (the session row's `order`, a cached idempotent answer) and handed out with the token derived
 * again from the order number, the policy number (libs/fulfillment policy-tokens.ts).
 */
export function createOrderLinks(policyTokens: PolicyTokens) {
  /** The order as stored. */
  function stored(order: AcpOrder): AcpOrder {
    return { ...order, permalink_url: withoutAccessToken(order.permalink_url) };
  }

  /** The order as handed out. */
  function handedOut(order: AcpOrder): AcpOrder {
    return {
      ...order,
      permalink_url: withAccessToken(order.permalink_url, policyTokens.tokenFor({ policyNumber: order.order_number })),
    };
  }

  /** An answer's body (a session, or an error) with `order` mapped; anything without an order as it is. */
  function inBody(body: unknown, map: (order: AcpOrder) => AcpOrder): unknown {
    const order = (body as { order?: Partial<AcpOrder> } | null)?.order;
    if (typeof order?.permalink_url !== 'string' || typeof order.order_number !== 'string') return body;
    return { ...(body as object), order: map(order as AcpOrder) };
  }

  return {
    handedOut,
    /** A session answer as an idempotency record keeps it. */
    storedBody: (body: unknown) => inBody(body, stored),
    /** A kept session answer as replayed. */
    handedOutBody: (body: unknown) => inBody(body, handedOut),
  };
}

export type OrderLinks = ReturnType<typeof createOrderLinks>;
