import { z } from 'zod';
import { QuoteRequestSchema } from '../quote-api/quote.schema';
import { EMAIL_MAX_LENGTH } from '../rules';

/**
 * Agentic Commerce Protocol (agentic checkout), release 2026-04-17, as served under `{base_url}/acp/v1`. The wire
 * names are the protocol's (snake_case); what is ours is the mapping: one session = one plan (`line_items[0].item.id`,
 * a planId) for one trip, whose facts travel in `metadata.trip` (the protocol has no field for them); amounts are
 * integer minor units.
 */
export const ACP_API_VERSION = '2026-04-17';
/** Every `API-Version` this server accepts (400 `unsupported_api_version` lists them). */
export const ACP_SUPPORTED_VERSIONS: readonly string[] = [ACP_API_VERSION];
/** Bearer keys of agent platforms start with this (the admin CLI mints them). */
export const ACP_AGENT_KEY_PREFIX = 'acpk';
/** The payment handler we advertise: Stripe Shared Payment Tokens (`credential.type: "spt"`). */
export const ACP_SPT_HANDLER_ID = 'stripe_spt';

export const AcpErrorTypeSchema = z.enum(['invalid_request', 'processing_error', 'service_unavailable']);

/** The protocol's flat error object: every non-2xx answer under /acp/v1. */
export const AcpErrorSchema = z
  .object({
    type: AcpErrorTypeSchema,
    code: z
      .string()
      .meta({ description: 'Stable code, e.g. missing_api_version, idempotency_conflict, not_found, unauthorized.' }),
    message: z.string(),
    param: z
      .string()
      .optional()
      .meta({ description: 'RFC 9535 JSONPath of the offending field, e.g. $.line_items[0].id' }),
    supported_versions: z.array(z.string()).optional().meta({ description: 'With missing/unsupported API-Version.' }),
  })
  .meta({ id: 'AcpError' });
export type AcpError = z.infer<typeof AcpErrorSchema>;

export const AcpSessionStatusSchema = z.enum(['not_ready_for_payment', 'ready_for_payment', 'completed', 'canceled']);
export type AcpSessionStatus = z.infer<typeof AcpSessionStatusSchema>;

const MinorUnits = z.number().int().meta({ description: 'Integer minor units (cents).' });
const AcpCurrency = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code')
  .transform((c) => c.toLowerCase())
  .meta({ description: 'ISO 4217, lowercase in answers. Only usd is sold today.', example: 'usd' });

/**
 * Trip facts: the body of POST /api/v1/quotes, with its rules (one age per traveler, state for US residents).
 * `email` and `currency` are taken from the session (buyer.email, usd), whatever is sent here.
 */
export const AcpTripSchema = QuoteRequestSchema;

const Text = (max: number) => z.string().trim().min(1).max(max);

export const AcpBuyerSchema = z
  .object({
    email: z.email().max(EMAIL_MAX_LENGTH),
    first_name: Text(100).optional(),
    last_name: Text(100).optional(),
    full_name: Text(200).optional(),
    phone_number: Text(40).optional(),
  })
  .strict()
  .meta({
    id: 'AcpBuyer',
    description:
      'The policy holder; the confirmation e-mail with the policy certificate (PDF) is sent to this address.',
  });

export const AcpItemSchema = z
  .object({
    id: Text(100).meta({
      description: 'A planId from the quote (GET /api/v1/products lists them).',
      example: 'polar-standard',
    }),
    name: z.string().max(200).optional(),
    unit_amount: MinorUnits.nonnegative().optional().meta({ description: 'Ignored: the price is always ours.' }),
  })
  .strict()
  .meta({ id: 'AcpItem' });

/** `metadata` of create and update: free-form for the protocol, `trip` for us. */
const AcpMetadataSchema = z
  .object({
    trip: z
      .unknown()
      .optional()
      // Checked by the service (problems answered in messages[], not a 400), documented as the QuoteRequest it must be.
      .meta({
        description: 'Trip facts: the body of POST /api/v1/quotes without email/currency.',
        override: { $ref: '#/components/schemas/QuoteRequest' },
      }),
  })
  .catchall(z.union([z.string().max(500), z.number(), z.boolean(), z.null()]))
  .meta({ description: 'Put the trip facts in `trip` (AcpTrip). Other keys: short scalars, stored and echoed.' });

const CapabilitiesRequestSchema = z
  .object({
    payment: z.unknown().optional(),
    interventions: z.unknown().optional(),
    extensions: z.array(z.unknown()).max(50).optional(),
  })
  .meta({ description: 'What the agent supports; we offer no interventions and no extensions.' });

export const AcpCreateSessionRequestSchema = z
  .object({
    line_items: z.array(AcpItemSchema).min(1).max(1).meta({ description: 'Exactly one: the plan to buy.' }),
    currency: AcpCurrency.refine((c) => c === 'usd', 'only usd is sold'),
    capabilities: CapabilitiesRequestSchema,
    buyer: AcpBuyerSchema.optional(),
    metadata: AcpMetadataSchema.optional(),
    locale: z.string().max(35).optional(),
    timezone: z.string().max(64).optional(),
  })
  .meta({ id: 'AcpCreateCheckoutSessionRequest' });
export type AcpCreateSessionRequest = z.infer<typeof AcpCreateSessionRequestSchema>;

export const AcpUpdateSessionRequestSchema = z
  .object({
    line_items: z.array(AcpItemSchema).min(1).max(1).optional(),
    buyer: AcpBuyerSchema.optional(),
    metadata: AcpMetadataSchema.optional().meta({ description: 'Our extension: a new `trip` re-quotes the session.' }),
  })
  .meta({ id: 'AcpUpdateCheckoutSessionRequest' });
export type AcpUpdateSessionRequest = z.infer<typeof AcpUpdateSessionRequestSchema>;

export const AcpPaymentDataSchema = z
  .object({
    handler_id: z.literal(ACP_SPT_HANDLER_ID),
    instrument: z.object({
      type: z.string().max(50),
      credential: z.object({
        type: z.literal('spt'),
        token: Text(255).meta({
          description: 'A Stripe Shared Payment Token (spt_…). In test mode spt_test_decline… declines.',
        }),
      }),
    }),
    billing_address: z.record(z.string(), z.string().max(200)).optional(),
  })
  .meta({ id: 'AcpPaymentData' });

export const AcpCompleteSessionRequestSchema = z
  .object({ payment_data: AcpPaymentDataSchema, buyer: AcpBuyerSchema.optional() })
  .meta({ id: 'AcpCompleteCheckoutSessionRequest' });
export type AcpCompleteSessionRequest = z.infer<typeof AcpCompleteSessionRequestSchema>;

export const AcpCancelSessionRequestSchema = z
  .object({
    intent_trace: z
      .object({ reason_code: z.string().max(100).optional(), description: z.string().max(500).optional() })
      .optional(),
  })
  .meta({ id: 'AcpCancelCheckoutSessionRequest' });

export const AcpTotalSchema = z
  .object({
    type: z.enum(['subtotal', 'total']),
    display_text: z.string(),
    amount: MinorUnits,
  })
  .meta({ id: 'AcpTotal' });
export type AcpTotal = z.infer<typeof AcpTotalSchema>;

export const AcpLineItemSchema = z
  .object({
    id: z.string(),
    item: z.object({ id: z.string() }),
    quantity: z.literal(1),
    name: z.string().optional(),
    description: z.string().optional(),
    unit_amount: MinorUnits.optional(),
    totals: z.array(AcpTotalSchema),
  })
  .meta({ id: 'AcpLineItem' });

export const AcpMessageSchema = z
  .object({
    type: z.enum(['error', 'info']),
    code: z
      .enum([
        'missing',
        'invalid',
        'payment_declined',
        'requires_3ds',
        'not_found',
        'expired',
        'conflict',
        'unsupported',
      ])
      .optional()
      .meta({ description: 'For type error.' }),
    severity: z.enum(['info', 'low', 'medium', 'high', 'critical']).optional(),
    resolution: z.enum(['recoverable', 'requires_buyer_input', 'requires_buyer_review']).optional(),
    param: z.string().optional(),
    content_type: z.literal('plain'),
    content: z.string(),
  })
  .meta({ id: 'AcpMessage' });
export type AcpMessage = z.infer<typeof AcpMessageSchema>;

export const AcpPaymentHandlerSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    display_name: z.string(),
    version: z.string(),
    spec: z.string(),
    requires_delegate_payment: z.boolean(),
    requires_pci_compliance: z.boolean(),
    psp: z.string(),
    config_schema: z.string(),
    instrument_schemas: z.array(z.string()),
    config: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AcpPaymentHandler' });

export const AcpOrderSchema = z
  .object({
    id: z.string(),
    checkout_session_id: z.string(),
    order_number: z.string().meta({ description: 'The policy number.' }),
    permalink_url: z
      .string()
      .meta({ description: "The certificate of insurance (PDF); the policy's access token rides in it." }),
    status: z.literal('confirmed'),
  })
  .meta({ id: 'AcpOrder' });
export type AcpOrder = z.infer<typeof AcpOrderSchema>;

export const AcpCheckoutSessionSchema = z
  .object({
    id: z.string(),
    protocol: z.object({ version: z.string() }),
    status: AcpSessionStatusSchema,
    currency: z.string(),
    buyer: AcpBuyerSchema.optional(),
    line_items: z.array(AcpLineItemSchema),
    fulfillment_options: z
      .array(z.object({}).strict())
      .max(0)
      .meta({ description: 'Always empty: a policy is delivered by email.' }),
    totals: z.array(AcpTotalSchema),
    messages: z.array(AcpMessageSchema),
    links: z.array(z.object({ type: z.enum(['terms_of_use', 'support']), url: z.string() })),
    capabilities: z.object({ payment: z.object({ handlers: z.array(AcpPaymentHandlerSchema) }) }),
    quote_id: z.string().optional(),
    quote_expires_at: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    created_at: z.string(),
    updated_at: z.string(),
    order: AcpOrderSchema.optional().meta({ description: 'Present once completed.' }),
  })
  .meta({ id: 'AcpCheckoutSession' });
export type AcpCheckoutSession = z.infer<typeof AcpCheckoutSessionSchema>;
