export {
  createPaymentIntake,
  NO_WEBHOOK_URL_ERROR,
  type IntakeOutcome,
  type PaymentIntake,
  type PaymentIntakeDeps,
  type RefundReason,
} from './payment-intake.service';
export { computeCommissionCents } from './commission';
export { randomPolicyNumber, randomWebhookEventId } from './identifiers';
