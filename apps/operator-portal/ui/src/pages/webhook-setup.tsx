/**
 * The Webhooks page's honest setup state: the provider sets the webhook URL and signing secret (docs/contract.md,
 * "Webhook: policy.issued"; operators cannot set them), so until it has, the page says so, says what to send the
 * provider, and the test-event button is disabled with its reason.
 */
import { Button } from '@expedition/ui';
import { Banner } from '../components';

/** The id of the visible reason the "Send a test event" button points at (aria-describedby) while it is disabled. */
export const TEST_EVENT_REASON_ID = 'test-event-reason';

export function AwaitingProviderNote({ isOwner }: { isOwner: boolean }) {
  return (
    <Banner tone="info" title="Waiting for the provider to set your webhook URL">
      <div class="note-body">
        <p>
          We send a signed <code>policy.issued</code> event to your server for every policy sold through your widget, to
          the address the provider sets for you. You cannot set it here. Until it is set, sales are still recorded: they
          appear in the delivery log below as “not sent”, and you can resend them once the address is set.
        </p>
        <p>Send your account contact at the provider:</p>
        <ul class="plain-steps">
          <li>
            the address where you want to receive events. It must start with <code>https://</code>, for example{' '}
            <code class="mono break">https://www.example.com/webhooks/expedition</code>;
          </li>
          <li>
            that it is for the event type <code>policy.issued</code> (one event per policy sold).
          </li>
        </ul>
        <p>
          The provider then also sets a signing secret. Once it is set,{' '}
          {isOwner
            ? 'you can reveal it on this page under Endpoint, with “Reveal signing secret”.'
            : 'an owner of your account can reveal it on this page under Endpoint.'}{' '}
          Your server uses it to check the <code>X-SVC-Signature</code> header (see{' '}
          <a href="/integration">Integration</a>, “Verify webhooks”).
        </p>
      </div>
    </Banner>
  );
}

/** "Send a test event": disabled, with the reason shown next to it, while no webhook URL is configured. */
export function TestEventButton({ noUrl, busy, onSend }: { noUrl: boolean; busy: boolean; onSend: () => void }) {
  return (
    <div class="action-with-note">
      <Button
        variant="secondary"
        busy={busy}
        disabled={noUrl}
        aria-describedby={noUrl ? TEST_EVENT_REASON_ID : undefined}
        onClick={onSend}
      >
        Send a test event
      </Button>
      {noUrl ? (
        <p id={TEST_EVENT_REASON_ID} class="small muted">
          Available once the provider has set your webhook URL.
        </p>
      ) : null}
    </div>
  );
}
