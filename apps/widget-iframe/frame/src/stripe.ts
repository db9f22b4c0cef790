/**
 * Stripe.js for the Tier 3 Payment Element (provider `stripe` only). Loaded by a script element — never bundled, never
 * before the traveler opens checkout — from https://js.stripe.com/v3 (the document's CSP allows it only with the
 * Stripe provider). Like @stripe/stripe-js: one load per page, and a failed load can be retried.
 */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3';

export interface StripeError {
  type?: string;
  code?: string;
  decline_code?: string;
  message?: string;
}
export interface StripePaymentIntent {
  id: string;
  status: string;
  amount?: number;
  currency?: string;
}
export interface StripeElements {
  create(
    type: 'payment',
    options?: Record<string, unknown>,
  ): { mount(el: HTMLElement): void; destroy(): void; on(event: string, handler: (e: unknown) => void): void };
}
export interface StripeLike {
  elements(options: { clientSecret: string; appearance?: Record<string, unknown>; locale?: string }): StripeElements;
  confirmPayment(options: {
    elements: StripeElements;
    redirect: 'if_required';
    confirmParams: { return_url: string; receipt_email?: string };
  }): Promise<{ error?: StripeError; paymentIntent?: StripePaymentIntent }>;
}
type StripeFactory = (publishableKey: string) => StripeLike;

let loading: Promise<StripeFactory> | undefined;

export function loadStripe(publishableKey: string, doc: Document = document): Promise<StripeLike> {
  const win = doc.defaultView as (Window & { Stripe?: StripeFactory }) | null;
  if (win?.Stripe) return Promise.resolve(win.Stripe(publishableKey));
  loading ??= new Promise<StripeFactory>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = STRIPE_JS_URL;
    script.async = true;
    script.addEventListener('load', () =>
      win?.Stripe ? resolve(win.Stripe) : reject(new Error('Stripe.js did not load')),
    );
    script.addEventListener('error', () => reject(new Error('Stripe.js could not be loaded')));
    doc.head.append(script);
  }).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading.then((factory) => factory(publishableKey));
}

/** What `stripe.confirmPayment` resolved to, as the iframe reports it. */
export type StripeOutcome =
  | { kind: 'succeeded'; amountCents?: number }
  | { kind: 'processing' }
  | { kind: 'failed'; code: string; message: string };

export function stripeOutcome(result: { error?: StripeError; paymentIntent?: StripePaymentIntent }): StripeOutcome {
  if (result.error) {
    return {
      kind: 'failed',
      code: result.error.decline_code ?? result.error.code ?? result.error.type ?? 'payment_failed',
      message: result.error.message ?? 'The payment could not be completed.',
    };
  }
  const intent = result.paymentIntent;
  if (intent?.status === 'succeeded')
    return { kind: 'succeeded', ...(typeof intent.amount === 'number' ? { amountCents: intent.amount } : {}) };
  if (intent?.status === 'processing' || intent?.status === 'requires_capture') return { kind: 'processing' };
  return {
    kind: 'failed',
    code: intent?.status ?? 'payment_failed',
    message: 'The payment was not completed. Try another card.',
  };
}
