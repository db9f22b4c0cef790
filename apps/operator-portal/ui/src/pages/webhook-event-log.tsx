/** The delivery log with its state filter and "load more": the operator's Webhooks page and the admin's operator page. */
import { useState } from 'preact/hooks';
import { Button, SelectField } from '@expedition/ui';
import type { WebhookEventList, WebhookEventSummary } from '../api/types';
import { Paged } from '../components';
import { usePagedList } from '../hooks';
import { useSession } from '../session';
import { EventTable } from './webhook-log';

/** The delivery log with a state filter and "load more" (cursor pagination). */
export function useEventLog(basePath: string) {
  const { api } = useSession();
  const [status, setStatus] = useState('');
  const list = usePagedList<WebhookEventSummary>(
    async (cursor) => {
      const query = new URLSearchParams();
      // Filtered by state: "Failed" leaves out events not sent for lack of a webhook URL (docs/portal-api.md).
      if (status) query.set('state', status);
      if (cursor) query.set('cursor', cursor);
      const qs = query.toString();
      const answer = await api.get<WebhookEventList>(`${basePath}${qs ? `?${qs}` : ''}`);
      return { items: answer.events, nextCursor: answer.nextCursor };
    },
    [status, basePath],
  );
  return { ...list, status, setStatus };
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
      <Paged list={log} loadingLabel="Loading events…" moreLabel="Load older events">
        {(events) => <EventTable events={events} hrefOf={hrefOf} onResend={onResend} busyId={busyId} noUrl={noUrl} />}
      </Paged>
    </>
  );
}
