import { useEffect, useState } from 'preact/hooks';
import { Button, SelectField, Spinner, useToast } from '@expedition/ui';
import { errorMessage } from '../api/client';
import type {
  PortalWebhook,
  RevealSecretResponse,
  WebhookEventDetail,
  WebhookEventList,
  WebhookEventResponse,
  WebhookEventSummary,
} from '../api/types';
import { Banner, CodeBlock, Dl, ErrorNote, Loaded, PageHeader, Secret, Section } from '../components';
import { formatBps, formatDateTime, formatRelative } from '../format';
import { useResource } from '../hooks';
import type { Params } from '../router';
import { useSession, useSignedIn } from '../session';
import { AttemptTable, EventStatus, EventTable } from './webhook-log';

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

/** The delivery log with status filter and "load more" (cursor pagination). */
export function useEventLog(basePath: string) {
  const { api } = useSession();
  const [status, setStatus] = useState('');
  const [events, setEvents] = useState<WebhookEventSummary[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  async function load(reset: boolean) {
    setLoading(true);
    try {
      const query = new URLSearchParams();
      if (status) query.set('status', status);
      if (!reset && cursor) query.set('cursor', cursor);
      const qs = query.toString();
      const answer = await api.get<WebhookEventList>(`${basePath}${qs ? `?${qs}` : ''}`);
      setEvents((prev) => (reset || !prev ? answer.events : [...prev, ...answer.events]));
      setCursor(answer.nextCursor);
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setLoading(false);
    }
  }
  useEffect(() => {
    void load(true);
  }, [status, basePath]);
  return { status, setStatus, events, cursor, error, loading, reload: () => load(true), more: () => load(false) };
}

export function EventLog({
  log,
  hrefOf,
  onResend,
  busyId,
}: {
  log: ReturnType<typeof useEventLog>;
  hrefOf?: (e: WebhookEventSummary) => string;
  onResend?: (e: WebhookEventSummary) => void;
  busyId?: string | null;
}) {
  return (
    <>
      <div class="toolbar">
        <SelectField
          label="State"
          value={log.status}
          onChange={(e) => log.setStatus((e.currentTarget as HTMLSelectElement).value)}
        >
          <option value="">All</option>
          <option value="pending">Pending</option>
          <option value="delivered">Delivered</option>
          <option value="failed">Failed</option>
        </SelectField>
        <Button variant="secondary" small busy={log.loading} onClick={() => void log.reload()}>
          Refresh
        </Button>
      </div>
      {log.error ? <ErrorNote message={log.error} onRetry={() => void log.reload()} /> : null}
      {log.events === null ? (
        log.error ? null : (
          <Spinner label="Loading events…" />
        )
      ) : (
        <>
          <EventTable events={log.events} hrefOf={hrefOf} onResend={onResend} busyId={busyId} />
          {log.cursor ? (
            <div class="more">
              <Button variant="secondary" busy={log.loading} onClick={() => void log.more()}>
                Load older events
              </Button>
            </div>
          ) : null}
        </>
      )}
    </>
  );
}

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

  async function resend(event: WebhookEventSummary) {
    setBusyId(event.id);
    try {
      await api.post<WebhookEventResponse>(`/operator/webhook-events/${encodeURIComponent(event.id)}/resend`);
      toast.success(`${event.eventId} queued for a new attempt.`);
      await log.reload();
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
          <Button
            variant="secondary"
            busy={sending}
            onClick={async () => {
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
          >
            Send a test event
          </Button>
        }
      />
      <Section title="Endpoint">
        <Loaded resource={webhook} label="webhook settings">
          {(w) => (
            <>
              <Dl
                items={[
                  ['Endpoint URL', w.url ? <code class="mono">{w.url}</code> : <span class="muted">not set yet</span>],
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
  const [busy, setBusy] = useState(false);
  return (
    <>
      <PageHeader
        title="Webhook event"
        lead={<a href="/webhooks">← Back to the delivery log</a>}
        actions={
          detail.data?.event.status === 'pending' ? undefined : (
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
      {e.status === 'pending' ? (
        <p class="muted">Delivery is in progress; you can resend the event once it is delivered or has failed.</p>
      ) : null}
      <Section title="Summary">
        <Dl
          items={[
            ['Event id', <code class="mono">{e.eventId}</code>],
            ['Type', e.type],
            ['State', <EventStatus event={e} />],
            ['Attempts', `${e.attemptCount}${e.status === 'pending' ? ` of ${e.maxAttempts} allowed` : ''}`],
            [
              'Next attempt',
              e.status === 'pending' && e.nextAttemptAt
                ? `${formatDateTime(e.nextAttemptAt)} (${formatRelative(e.nextAttemptAt)})`
                : '—',
            ],
            ['Created', formatDateTime(e.createdAt)],
            ['Delivered', formatDateTime(e.deliveredAt)],
          ]}
        />
      </Section>
      <Section title="Attempts">
        <AttemptTable attempts={detail.attempts} />
      </Section>
      <Section title="Body">
        <CodeBlock code={JSON.stringify(detail.payload, null, 2)} label="Event body (JSON)" />
      </Section>
    </>
  );
}
