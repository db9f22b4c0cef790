// Test-only helpers; never imported by production code (index.ts does not re-export them).
export { startFakeStripeServer, type FakeStripeRequest, type FakeStripeServer } from './testing/fake-stripe-server';
