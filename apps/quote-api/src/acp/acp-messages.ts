import type { AcpMessage } from '@expedition/contracts';

/** A session message of type error: what stands between the session and payment, at a JSONPath of the request. */
export function acpError(code: NonNullable<AcpMessage['code']>, param: string, content: string): AcpMessage {
  const resolution = code === 'payment_declined' || code === 'requires_3ds' ? 'requires_buyer_input' : 'recoverable';
  return { type: 'error', code, severity: 'high', resolution, param, content_type: 'plain', content };
}

export function paidElsewhere(): AcpMessage {
  return acpError('conflict', '$', 'This trip was already paid through another channel; nothing was charged here.');
}
