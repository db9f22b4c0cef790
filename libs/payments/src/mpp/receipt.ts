import { decodeBase64UrlJson, encodeJcsBase64Url } from './encoding';

export interface PaymentReceipt {
  /** MPP defines no other value; the header only appears on 2xx. */
  status: 'success';
  method: string;
  /** RFC 3339. */
  timestamp: string;
  /** The processor's payment reference: the PaymentIntent id. */
  reference: string;
  externalId?: string;
}

export interface FormatPaymentReceiptInput {
  status: 'success';
  method: 'stripe';
  timestamp: Date | string;
  reference: string;
  externalId?: string;
}

/** The `Payment-Receipt` header value: base64url (no padding) of the receipt JSON. */
export function formatPaymentReceipt(input: FormatPaymentReceiptInput): string {
  const timestamp = typeof input.timestamp === 'string' ? input.timestamp : input.timestamp.toISOString();
  const receipt: PaymentReceipt = {
    status: input.status,
    method: input.method,
    timestamp,
    reference: input.reference,
    ...(input.externalId !== undefined ? { externalId: input.externalId } : {}),
  };
  return encodeJcsBase64Url(receipt);
}

/** Client side: undefined when the value is not a receipt. */
export function parsePaymentReceipt(headerValue: string): PaymentReceipt | undefined {
  let value: unknown;
  try {
    value = decodeBase64UrlJson(headerValue.trim());
  } catch {
    return undefined;
  }
  const r = value as Partial<PaymentReceipt> | null;
  if (!r || r.status !== 'success' || typeof r.method !== 'string') return undefined;
  if (typeof r.timestamp !== 'string' || typeof r.reference !== 'string') return undefined;
  return r as PaymentReceipt;
}
