/** The delivery log with its state filter and "load more": the operator's Webhooks page and the admin's operator page. */
import { useEffect, useState } from 'preact/hooks';
import { Button, SelectField, Spinner } from '@expedition/ui';
import { errorMessage } from '../api/client';
import type { WebhookEventList, WebhookEventSummary } from '../api/types';
import { ErrorNote } from '../components';
import { useSession } from '../session';
import { EventTable } from './webhook-log';

/** The delivery log with a state filter and "load more" (cursor pagination). */
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
      // Filtered by state: "Failed" leaves out events not sent for lack of a webhook URL (docs/portal-api.md).
      if (status) query.set('state', status);
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
  noUrl = false,
}: {
  log: ReturnType<typeof useEventLog>;
  hrefOf?: (e: WebhookEventSummary) => string;
  onResend?: (e: WebhookEventSummary) => void;
  busyId?: string | null;
  /** No webhook URL is configured: the empty state does not invite a test event, and nothing can be resent. */
  noUrl?: boolean;
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
          <option value="not_sent">Not sent (no webhook URL)</option>
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
          <EventTable events={log.events} hrefOf={hrefOf} onResend={onResend} busyId={busyId} noUrl={noUrl} />
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
