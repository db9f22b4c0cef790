/** The delivery log, shared by the operator's Webhooks page and the admin's operator page (same shapes). */
import { formatMoney } from '@expedition/contracts/rules';
import { Badge, Button, EmptyState, type BadgeTone } from '@expedition/ui';
import type { WebhookAttempt, WebhookEventSummary } from '../api/types';
import { formatDateTime, formatRelative } from '../format';
import { ActionsHeader, StackTable } from '../components';
import { ModeBadge } from './dashboard-page';

const STATE_TONE: Record<string, BadgeTone> = {
  pending: 'warning',
  delivered: 'success',
  failed: 'danger',
  not_sent: 'neutral',
};

/**
 * An event's state in words. `not_sent` (no webhook URL was configured: the event never left) is not a failed
 * delivery, so it is neither red nor called failed (docs/portal-api.md, "Webhooks"). An unknown state is shown as is.
 */
export function describeEventState(event: Pick<WebhookEventSummary, 'state'>): { label: string; tone: BadgeTone } {
  return { label: event.state.replace(/_/g, ' '), tone: STATE_TONE[event.state] ?? 'neutral' };
}

/** Resend is for delivered, failed and not-sent events, and only once a webhook URL is configured. */
export function canResend(event: Pick<WebhookEventSummary, 'state'>, noUrl: boolean): boolean {
  return event.state !== 'pending' && !noUrl;
}

export function EventStatus({ event }: { event: Pick<WebhookEventSummary, 'state'> }) {
  const { label, tone } = describeEventState(event);
  return <Badge tone={tone}>{label}</Badge>;
}

export function EventTable({
  events,
  hrefOf,
  onResend,
  busyId,
  noUrl = false,
}: {
  events: WebhookEventSummary[];
  hrefOf?: (event: WebhookEventSummary) => string;
  onResend?: (event: WebhookEventSummary) => void;
  busyId?: string | null;
  noUrl?: boolean;
}) {
  if (events.length === 0) {
    return noUrl ? (
      <EmptyState title="No webhook events yet">
        A <code>policy.issued</code> event is recorded for every policy sold through your widget. It is sent once the
        provider has set your webhook URL; test events can be sent from then on too.
      </EmptyState>
    ) : (
      <EmptyState title="No webhook events yet">
        A <code>policy.issued</code> event is sent for every policy sold through your widget. Send a test event to check
        your receiver.
      </EmptyState>
    );
  }
  return (
    <StackTable
      label="Webhook events"
      head={
        <>
          <th scope="col">Event</th>
          <th scope="col">State</th>
          <th scope="col">Attempts</th>
          <th scope="col">Last result</th>
          <th scope="col">Policy</th>
          <th scope="col">Created</th>
          {onResend ? <ActionsHeader /> : null}
        </>
      }
    >
      {events.map((e) => (
        <tr key={e.id} data-event-id={e.eventId}>
          <td data-label="Event">
            {hrefOf ? (
              <a href={hrefOf(e)} class="mono">
                {e.eventId}
              </a>
            ) : (
              <code class="mono">{e.eventId}</code>
            )}
            <div class="small muted">
              {e.type} {e.isTest ? <Badge tone="neutral">test event</Badge> : <ModeBadge mode={e.mode} />}
            </div>
          </td>
          <td data-label="State">
            <EventStatus event={e} />
            {e.state === 'pending' && e.nextAttemptAt ? (
              <div class="small muted">next {formatRelative(e.nextAttemptAt)}</div>
            ) : null}
          </td>
          <td data-label="Attempts">{e.attemptCount}</td>
          <td data-label="Last result" class="small">
            {e.lastStatusCode ? `HTTP ${e.lastStatusCode}` : e.lastError ? '' : '—'}
            {e.lastError ? <div class={e.state === 'not_sent' ? 'muted' : 'error-text'}>{e.lastError}</div> : null}
          </td>
          <td data-label="Policy" class="small">
            {e.policyNumber ?? '—'}
            {e.premiumCents !== null && e.currency ? (
              <div class="muted">{formatMoney(e.premiumCents, e.currency)}</div>
            ) : null}
          </td>
          <td data-label="Created" class="small">
            {formatDateTime(e.createdAt)}
          </td>
          {onResend ? (
            <td class="actions">
              {/* A pending event is still being delivered; without a webhook URL nothing can be sent. */}
              {!canResend(e, noUrl) ? null : (
                <Button
                  variant="secondary"
                  small
                  busy={busyId === e.id}
                  onClick={() => onResend(e)}
                  aria-label={`Resend ${e.eventId}`}
                >
                  Resend
                </Button>
              )}
            </td>
          ) : null}
        </tr>
      ))}
    </StackTable>
  );
}

/** `notSent`: the event's attempts, if any, found no webhook URL: they read "not sent", not "failed". */
export function AttemptTable({ attempts, notSent = false }: { attempts: WebhookAttempt[]; notSent?: boolean }) {
  if (attempts.length === 0)
    return (
      <p class="muted">
        {notSent
          ? 'No attempt: no webhook URL was configured, so the event was not sent.'
          : 'No attempt yet: the first one is on its way.'}
      </p>
    );
  return (
    <StackTable
      label="Delivery attempts"
      head={
        <>
          <th scope="col">#</th>
          <th scope="col">Time</th>
          <th scope="col">Result</th>
          <th scope="col">HTTP status</th>
          <th scope="col" class="num">
            Duration
          </th>
          <th scope="col">Error</th>
        </>
      }
    >
      {attempts.map((a) => (
        <tr key={a.attemptNumber}>
          <td data-label="#">{a.attemptNumber}</td>
          <td data-label="Time">{formatDateTime(a.startedAt)}</td>
          <td data-label="Result">
            {a.ok ? (
              <Badge tone="success">delivered</Badge>
            ) : notSent ? (
              <Badge tone="neutral">not sent</Badge>
            ) : (
              <Badge tone="danger">failed</Badge>
            )}
          </td>
          <td data-label="HTTP status">{a.statusCode ?? '—'}</td>
          <td data-label="Duration" class="num">
            {a.durationMs} ms
          </td>
          <td data-label="Error" class="small">
            {a.error ?? '—'}
          </td>
        </tr>
      ))}
    </StackTable>
  );
}
