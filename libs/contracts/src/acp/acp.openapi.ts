import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { API_LICENSE } from '../openapi/document-info';
import { QUOTE_API_SANDBOX } from '../quote-api/quote-api.constants';
import {
  ACP_API_VERSION,
  ACP_SPT_HANDLER_ID,
  ACP_SUPPORTED_VERSIONS,
  AcpCancelSessionRequestSchema,
  AcpCheckoutSessionSchema,
  AcpCompleteSessionRequestSchema,
  AcpCreateSessionRequestSchema,
  AcpErrorSchema,
  AcpTripSchema,
  AcpUpdateSessionRequestSchema,
} from './acp.schema';

const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } });
const error = (description: string) => ({ description, ...json(AcpErrorSchema) });

const requestId = z.string().max(200).optional().meta({ description: 'Optional; echoed in the response.' });
const apiVersion = z
  .string()
  .meta({ description: `Required. Supported: ${ACP_SUPPORTED_VERSIONS.join(', ')}.`, example: ACP_API_VERSION });
const signature = z
  .string()
  .optional()
  .meta({
    description:
      'base64url signature (Ed25519, or ES256 as r‖s) over Timestamp + "\\n" + method + "\\n" + path (from /acp/v1 on, ' +
      'with the query) + "\\n" + the body\'s RFC 8785 canonical JSON (nothing without a body). Required, with Timestamp, ' +
      'when the provider registered a signing key for your agent key; otherwise ignored.',
  });
const timestamp = z.string().optional().meta({
  description: 'RFC 3339; within ±300 s of our clock. Required with Signature.',
  example: '2026-04-17T10:30:00Z',
});
const getHeaders = z.object({
  'API-Version': apiVersion,
  'Request-Id': requestId,
  Signature: signature,
  Timestamp: timestamp,
});
const postHeaders = z.object({
  'API-Version': apiVersion,
  'Request-Id': requestId,
  Signature: signature,
  Timestamp: timestamp,
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .meta({
      description:
        'Required on every POST (a UUID v4 per intended action). Same key and body: the stored answer again with ' +
        '`Idempotent-Replayed: true`; another body: 422 idempotency_conflict; the first still running: 409 ' +
        'idempotency_in_flight with Retry-After. Scoped to your key and the endpoint; kept at least 24 hours.',
    }),
});
const sessionPath = z.object({ checkout_session_id: z.string().meta({ description: 'The session id (acs_…).' }) });

const echoed = z.object({
  'Request-Id': z.string().optional().meta({ description: 'Echo of the request header.' }),
  'Idempotency-Key': z.string().optional().meta({ description: 'Echo of the request header (POST).' }),
  'Idempotent-Replayed': z.literal('true').optional().meta({ description: 'This is a stored answer, replayed.' }),
});
const session = (description: string) => ({ description, headers: echoed, ...json(AcpCheckoutSessionSchema) });
const common = {
  '400': error(
    'Invalid body or headers (missing_api_version, unsupported_api_version with supported_versions, idempotency_key_required, invalid).',
  ),
  '401': error(
    'unauthorized: missing, unknown or revoked bearer key; invalid_signature: a missing, invalid or stale Signature/Timestamp for a key with a registered signing key.',
  ),
  '403': error('key_mode_mismatch: a key of the other mode (a live key against a test deployment, or the reverse).'),
  '429': {
    description: 'Too many requests for this key.',
    headers: z.object({ 'Retry-After': z.string() }),
    ...json(AcpErrorSchema),
  },
};
const postErrors = {
  ...common,
  '409': {
    description: 'idempotency_in_flight: the first request with this key is still running.',
    headers: z.object({ 'Retry-After': z.string() }),
    ...json(AcpErrorSchema),
  },
  '422': error('idempotency_conflict: this key was used with another body.'),
};

function describeApi(): string {
  return [
    'Agentic Commerce Protocol (agentic checkout, release ' + ACP_API_VERSION + ') for Expedition travel insurance.',
    '',
    'One checkout session buys one plan for one trip. Send the trip facts in `metadata.trip` (the fields of ' +
      'POST /api/v1/quotes: destination, startDate, durationDays, tripCost in USD for all travelers, travelers, ' +
      'travelerAges, residence, state for US residents, operator), the plan in `line_items[0].id` (a planId), and ' +
      'the buyer (email at least). The session is `ready_for_payment` once all three are valid; until then ' +
      '`messages[]` says what is missing or invalid (JSONPath in `param`). Amounts are integer cents.',
    '',
    `Complete with a Stripe Shared Payment Token: payment_data = {handler_id: "${ACP_SPT_HANDLER_ID}", instrument: ` +
      '{type: "card", credential: {type: "spt", token}}}. The completed session carries `order` with the policy ' +
      'number and `permalink_url`, the certificate of insurance (PDF). A quote is charged at most once, whatever ' +
      'channel pays for it.',
    '',
    `Sandbox (test keys): a token starting \`${QUOTE_API_SANDBOX.declinedSptPrefix}\` is declined (messages[] ` +
      'payment_declined, the session stays open); any other `spt_test_…` token succeeds.',
  ].join('\n');
}

/** The OpenAPI 3.1 document of /acp/v1, built from the ACP zod schemas; `serverUrl` is quote-api's public URL. */
export function buildAcpOpenApi(options: { serverUrl?: string } = {}) {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Expedition Travel Insurance — Agentic Commerce Protocol',
      version: ACP_API_VERSION,
      description: describeApi(),
      license: API_LICENSE,
    },
    servers: options.serverUrl ? [{ url: `${options.serverUrl.replace(/\/$/, '')}/acp/v1` }] : undefined,
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An agent key (acpk_…) from the provider.' },
      },
      schemas: { AcpTrip: AcpTripSchema },
    },
    paths: {
      '/checkout_sessions': {
        post: {
          operationId: 'createCheckoutSession',
          summary: 'Create a checkout session for one plan and one trip',
          requestParams: { header: postHeaders },
          requestBody: { required: true, ...json(AcpCreateSessionRequestSchema) },
          responses: { '201': session('The session.'), ...postErrors },
        },
      },
      '/checkout_sessions/{checkout_session_id}': {
        get: {
          operationId: 'getCheckoutSession',
          summary: 'The session as it is now',
          requestParams: { path: sessionPath, header: getHeaders },
          responses: { '200': session('The session.'), ...common, '404': error('No such session for this key.') },
        },
        post: {
          operationId: 'updateCheckoutSession',
          summary: 'Change the plan, the buyer or the trip',
          requestParams: { path: sessionPath, header: postHeaders },
          requestBody: { required: true, ...json(AcpUpdateSessionRequestSchema) },
          responses: {
            '200': session('The session.'),
            ...postErrors,
            '404': error('No such session for this key.'),
            '405': error('The session is completed or canceled.'),
          },
        },
      },
      '/checkout_sessions/{checkout_session_id}/complete': {
        post: {
          operationId: 'completeCheckoutSession',
          summary: 'Pay with a Shared Payment Token and issue the policy',
          requestParams: { path: sessionPath, header: postHeaders },
          requestBody: { required: true, ...json(AcpCompleteSessionRequestSchema) },
          responses: {
            '200': session('Completed (with `order`), or still open with messages[] (declined, not ready).'),
            ...postErrors,
            '404': error('No such session for this key.'),
            '405': error('The session is canceled.'),
          },
        },
      },
      '/checkout_sessions/{checkout_session_id}/cancel': {
        post: {
          operationId: 'cancelCheckoutSession',
          summary: 'Cancel an open session',
          requestParams: { path: sessionPath, header: postHeaders },
          requestBody: { required: false, ...json(AcpCancelSessionRequestSchema) },
          responses: {
            '200': session('Canceled.'),
            ...postErrors,
            '404': error('No such session for this key.'),
            '405': error('Already completed or canceled.'),
          },
        },
      },
    },
  });
}
