import { useState } from 'preact/hooks';
import { Button, useToast } from '@expedition/ui';
import { errorMessage } from '../api/client';
import type {
  PortalWebhook,
  RevealSecretResponse,
  WebhookEventDetail,
  WebhookEventResponse,
  WebhookEventSummary,
} from '../api/types';
import { Banner, CodeBlock, Dl, Loaded, PageHeader, Secret, Section } from '../components';
import { formatBps, formatDateTime, formatRelative } from '../format';
import { useResource } from '../hooks';
import type { Params } from '../router';
import { useSession, useSignedIn } from '../session';
import { AttemptTable, EventStatus, canResend } from './webhook-log';
import { EventLog, useEventLog } from './webhook-event-log';
import { AwaitingProviderNote, TestEventButton } from './webhook-setup';

/** "after 1 minute, then 10 minutes" from the retry schedule in seconds. */
export function describeSchedule(seconds: readonly number[]): string {
  const words = seconds.map((s) =>
    s % 3600 === 0 ? plural(s / 3600, 'hour') : s % 60 === 0 ? plural(s / 60, 'minute') : plural(s, 'second'),
  );
  if (words.length === 0) return '';
  return `after ${words[0]}${words
    .slice(1)
    .map((w) => `, then ${w}`)
    .join('')}`;
}
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

export function WebhooksPage() {
  const { api } = useSession();
  const session = useSignedIn();
  const toast = useToast();
  const webhook = useResource<PortalWebhook>('/operator/webhook');
  const log = useEventLog('/operator/webhook-events');
  const [secrets, setSecrets] = useState<RevealSecretResponse['secrets'] | null>(null);
  const [revealing, setRevealing] = useState(false);
  const [sending, setSending] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  const isOwner = session.user.role === 'owner';
  // The provider sets the URL (docs/contract.md): without one, nothing can be sent, tested or resent.
  const noUrl = webhook.data?.url === null;

  async function resend(event: WebhookEventSummary) {
    setBusyId(event.id);
    try {
      await api.post<WebhookEventResponse>(`/operator/webhook-events/${encodeURIComponent(event.id)}/resend`);
      await log.reload();
      toast.success(`${event.eventId} queued for a new attempt.`);
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusyId(null);
    }
  }

  return (
    <>
      <PageHeader
        title="Webhooks"
        lead="We POST a signed policy.issued event to your endpoint for every policy sold through your widget."
        actions={
          <TestEventButton
            noUrl={noUrl}
            busy={sending}
            onSend={async () => {
              setSending(true);
              try {
                await api.post<WebhookEventResponse>('/operator/webhook-events/test');
                toast.success('Test event queued. It is signed like a real one and never counts as a sale.');
                await log.reload();
              } catch (e) {
                toast.error(errorMessage(e));
              } finally {
                setSending(false);
              }
            }}
          />
        }
      />
      <Section title="Endpoint">
        <Loaded resource={webhook} label="webhook settings">
          {(w) => (
            <>
              {w.url === null ? <AwaitingProviderNote isOwner={isOwner} /> : null}
              <Dl
                items={[
                  [
                    'Endpoint URL',
                    w.url ? (
                      <code class="mono">{w.url}</code>
                    ) : (
                      <span class="muted">not set yet: the provider sets it</span>
                    ),
                  ],
                  ['Commission rate', formatBps(w.commissionRateBps)],
                  [
                    'Signing secret',
                    w.secretSet
                      ? w.previousSecretExpiresAt
                        ? `set; the previous one also signs until ${formatDateTime(w.previousSecretExpiresAt)}`
                        : 'set'
                      : 'not set yet',
                  ],
                  [
                    'Retries',
                    `${w.maxAttempts} attempts in total${w.retryScheduleSeconds.length ? `, ${describeSchedule(w.retryScheduleSeconds)}` : ''}`,
                  ],
                ]}
              />
              <p class="muted small">
                The provider sets the endpoint URL, the signing secret and your commission rate. Ask your account
                contact to change them.
              </p>
              {w.secretSet && isOwner ? (
                secrets ? (
                  <div class="stack">
                    {secrets.map((s) => (
                      <div key={s.secret}>
                        <div class="small muted">
                          {s.current ? 'Current secret' : `Previous secret, signs until ${formatDateTime(s.expiresAt)}`}
                        </div>
                        <Secret
                          value={s.secret}
                          label={s.current ? 'current signing secret' : 'previous signing secret'}
                        />
                      </div>
                    ))}
                    <Button variant="secondary" small onClick={() => setSecrets(null)}>
                      Hide
                    </Button>
                  </div>
                ) : (
                  <Button
                    variant="secondary"
                    busy={revealing}
                    onClick={async () => {
                      setRevealing(true);
                      try {
                        setSecrets((await api.post<RevealSecretResponse>('/operator/webhook/secret/reveal')).secrets);
                      } catch (e) {
                        toast.error(errorMessage(e));
                      } finally {
                        setRevealing(false);
                      }
                    }}
                  >
                    Reveal signing secret
                  </Button>
                )
              ) : w.secretSet ? (
                <p class="muted small">Only an owner of the account can reveal the signing secret.</p>
              ) : null}
            </>
          )}
        </Loaded>
      </Section>
      <Section title="Delivery log">
        <EventLog
          log={log}
          hrefOf={(e) => `/webhooks/events/${encodeURIComponent(e.id)}`}
          onResend={resend}
          busyId={busyId}
          noUrl={noUrl}
        />
      </Section>
    </>
  );
}

export function WebhookEventPage({ params }: { params: Params }) {
  const { api } = useSession();
  const toast = useToast();
  const id = params['id'] ?? '';
  const detail = useResource<WebhookEventDetail>(`/operator/webhook-events/${encodeURIComponent(id)}`);
  const noUrl = useResource<PortalWebhook>('/operator/webhook').data?.url === null;
  const [busy, setBusy] = useState(false);
  return (
    <>
      <PageHeader
        title="Webhook event"
        lead={<a href="/webhooks">← Back to the delivery log</a>}
        actions={
          detail.data && !canResend(detail.data.event, noUrl) ? undefined : (
            <Button
              variant="secondary"
              busy={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await api.post(`/operator/webhook-events/${encodeURIComponent(id)}/resend`);
                  toast.success('Queued for a new attempt with the same eventId and body.');
                  await detail.reload();
                } catch (e) {
                  toast.error(errorMessage(e));
                } finally {
                  setBusy(false);
                }
              }}
            >
              Resend
            </Button>
          )
        }
      />
      <Loaded resource={detail} label="event">
        {(d) => <EventDetail detail={d} />}
      </Loaded>
    </>
  );
}

export function EventDetail({ detail }: { detail: WebhookEventDetail }) {
  const e = detail.event;
  return (
    <>
      {e.isTest ? (
        <Banner tone="info">This is a test event: signed like a real one, never counted as a sale.</Banner>
      ) : null}
      {e.state === 'pending' ? (
        <p class="muted">Delivery is in progress; you can resend the event once it is delivered or has failed.</p>
      ) : null}
      {e.state === 'not_sent' ? (
        <Banner tone="info" title="Not sent: no webhook URL configured">
          This event never left: no webhook URL was configured for your account, so nothing was sent and nothing failed
          at your end. Once the provider has set your webhook URL, you can resend it here.
        </Banner>
      ) : null}
      <Section title="Summary">
        <Dl
          items={[
            ['Event id', <code class="mono">{e.eventId}</code>],
            ['Type', e.type],
            ['State', <EventStatus event={e} />],
            ['Attempts', `${e.attemptCount}${e.state === 'pending' ? ` of ${e.maxAttempts} allowed` : ''}`],
            [
              'Next attempt',
              e.state === 'pending' && e.nextAttemptAt
                ? `${formatDateTime(e.nextAttemptAt)} (${formatRelative(e.nextAttemptAt)})`
                : '—',
            ],
            ['Created', formatDateTime(e.createdAt)],
            ['Delivered', formatDateTime(e.deliveredAt)],
          ]}
        />
      </Section>
      <Section title="Attempts">
        <AttemptTable attempts={detail.attempts} notSent={e.state === 'not_sent'} />
      </Section>
      <Section title="Body">
        <CodeBlock code={JSON.stringify(detail.payload, null, 2)} label="Event body (JSON)" />
      </Section>
    </>
  );
}
