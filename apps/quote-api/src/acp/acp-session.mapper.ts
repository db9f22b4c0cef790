import {
  ACP_API_VERSION,
  ACP_SPT_HANDLER_ID,
  type AcpCheckoutSession,
  type AcpCreateSessionRequest,
  type AcpMessage,
  type AcpOrder,
  type AcpSessionStatus,
  type AcpTotal,
} from '@expedition/contracts';
import type { AcpCheckoutSession as SessionRow, Quote, QuoteEstimate } from '@expedition/db';
import { getPlan } from '@expedition/domain-pricing';
import type { OrderLinks } from './acp-order';

export type AcpBuyer = NonNullable<AcpCreateSessionRequest['buyer']>;

export type QuoteWithEstimates = Quote & { estimates: QuoteEstimate[]; purchase: { channel: string } | null };

export interface AcpSessionMapperDeps {
  /** quote-api's public URL: the session's support link, the order's certificate link. */
  publicUrl: string;
  /** Stripe profile the SPTs are granted to (the payment handler's merchant_id). */
  networkId: string;
  /** The stored order's link gets the policy's access token back (acp-order.ts). */
  orderLinks: Pick<OrderLinks, 'handedOut'>;
}

/** A session row, with the quote it is priced by, as the protocol's CheckoutSession. */
export function toAcpSession(
  row: SessionRow,
  quote: QuoteWithEstimates | null,
  deps: AcpSessionMapperDeps,
): AcpCheckoutSession {
  const estimate = quote?.estimates.find((e) => e.planId === row.planId);
  const plan = row.planId ? getPlan(row.planId) : undefined;
  const totals = (amount: number): AcpTotal[] => [
    { type: 'subtotal', display_text: 'Premium', amount },
    { type: 'total', display_text: 'Total', amount },
  ];
  const metadata = row.metadata as Record<string, unknown> | null;
  return {
    id: row.id,
    protocol: { version: ACP_API_VERSION },
    status: row.status as AcpSessionStatus,
    currency: row.currency,
    ...(row.buyer ? { buyer: row.buyer as AcpBuyer } : {}),
    line_items: row.planId
      ? [
          {
            id: `li_${row.planId}`,
            item: { id: row.planId },
            quantity: 1,
            ...(plan ? { name: plan.name } : {}),
            description: 'Travel insurance for every traveler of the trip',
            ...(estimate ? { unit_amount: estimate.premiumCents } : {}),
            totals: estimate ? totals(estimate.premiumCents) : [],
          },
        ]
      : [],
    fulfillment_options: [],
    totals: estimate ? totals(estimate.premiumCents) : [],
    messages: row.messages as AcpMessage[],
    links: [{ type: 'support', url: `${deps.publicUrl}/llms.txt` }],
    capabilities: { payment: { handlers: [sptHandler(deps.networkId)] } },
    ...(quote ? { quote_id: quote.id } : {}),
    ...(quote?.expiresAt ? { quote_expires_at: quote.expiresAt.toISOString() } : {}),
    ...(metadata && Object.keys(metadata).length ? { metadata } : {}),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...(row.order ? { order: deps.orderLinks.handedOut(row.order as AcpOrder) } : {}),
  };
}

/** The one handler we offer: a Stripe Shared Payment Token, settled at our Stripe profile. */
function sptHandler(networkId: string) {
  return {
    id: ACP_SPT_HANDLER_ID,
    name: 'dev.acp.tokenized.card',
    display_name: 'Card (Stripe Shared Payment Token)',
    version: ACP_API_VERSION,
    spec: 'https://github.com/agentic-commerce-protocol/agentic-commerce-protocol/blob/main/rfcs/rfc.payment_handlers.md',
    requires_delegate_payment: true,
    requires_pci_compliance: false,
    psp: 'stripe',
    config_schema: 'https://github.com/agentic-commerce-protocol/agentic-commerce-protocol/tree/main/spec',
    instrument_schemas: ['https://github.com/agentic-commerce-protocol/agentic-commerce-protocol/tree/main/spec'],
    config: {
      merchant_id: networkId,
      psp: 'stripe',
      accepted_brands: ['visa', 'mastercard', 'amex'],
      credential_type: 'spt',
    },
  };
}
