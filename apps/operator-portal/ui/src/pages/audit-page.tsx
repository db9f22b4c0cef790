import { useEffect, useState } from 'preact/hooks';
import { Button, EmptyState, Spinner } from '@expedition/ui';
import { errorMessage } from '../api/client';
import type { AuditEntry, AuditList } from '../api/types';
import { ErrorNote, PageHeader, TableWrap } from '../components';
import { formatDateTime } from '../format';
import { useSession } from '../session';

/** "publishable_key.rotated" → "Publishable key rotated". */
export function describeAction(action: string): string {
  const text = action.replace(/[._]/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * One line per changed field: "field: before → after". A field only in `after` (created) reads "field: value", one
 * only in `before` (removed) "field: value → —". Nested values are written compactly, never as raw JSON.
 */
export function describeChange(before: unknown, after: unknown): string[] {
  if (before == null && after == null) return [];
  if (!(isFields(before) || before == null) || !(isFields(after) || after == null))
    return [`${compact(before)} → ${compact(after)}`];
  const was = before ?? {};
  const now = after ?? {};
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])];
  return keys
    .filter((k) => JSON.stringify(was[k]) !== JSON.stringify(now[k]))
    .map((k) =>
      !(k in was) ? `${k}: ${compact(now[k])}` : `${k}: ${compact(was[k])} → ${k in now ? compact(now[k]) : '—'}`,
    );
}
const isFields = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** "none", text as is, lists as "a, b", objects as "{ key: value, … }". */
export function compact(v: unknown): string {
  if (v === undefined) return '—';
  if (v === null) return 'none';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.length ? v.map(compact).join(', ') : 'none';
  if (isFields(v))
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${k}: ${compact(x)}`)
      .join(', ')} }`;
  return String(v);
}

export function AuditTable({ entries, showOperator }: { entries: AuditEntry[]; showOperator?: boolean }) {
  if (entries.length === 0)
    return (
      <EmptyState title="Nothing recorded yet">Key, origin, webhook and settings changes are recorded here.</EmptyState>
    );
  return (
    <TableWrap label="Audit log entries">
      <table class="table table--stack">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            {showOperator ? <th scope="col">Operator</th> : null}
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id}>
              <td data-label="When" class="small nowrap">
                {formatDateTime(e.at)}
              </td>
              <td data-label="Who" class="small">
                {e.actor.email ?? '—'}
                {e.actor.role ? <div class="muted">{e.actor.role.replace('_', ' ')}</div> : null}
              </td>
              <td data-label="What">
                {describeAction(e.action)}
                {e.targetId ? <div class="small muted mono">{e.targetId}</div> : null}
              </td>
              {showOperator ? (
                <td data-label="Operator" class="small">
                  {e.operatorName ?? e.operatorId ?? '—'}
                </td>
              ) : null}
              <td data-label="Change" class="small change">
                {changeLines(e)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function changeLines(e: AuditEntry) {
  const lines = describeChange(e.before, e.after);
  return lines.length ? lines.map((line, i) => <div key={i}>{line}</div>) : '—';
}

/** Cursor-paged audit list of any path answering AuditList. */
export function useAuditLog(path: string) {
  const { api } = useSession();
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  async function load(reset: boolean) {
    setLoading(true);
    try {
      const sep = path.includes('?') ? '&' : '?';
      const answer = await api.get<AuditList>(
        !reset && cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path,
      );
      setEntries((prev) => (reset || !prev ? answer.entries : [...prev, ...answer.entries]));
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
  }, [path]);
  return { entries, cursor, error, loading, reload: () => load(true), more: () => load(false) };
}

export function AuditView({ log, showOperator }: { log: ReturnType<typeof useAuditLog>; showOperator?: boolean }) {
  return (
    <>
      {log.error ? <ErrorNote message={log.error} onRetry={() => void log.reload()} /> : null}
      {log.entries === null ? (
        log.error ? null : (
          <Spinner label="Loading the audit log…" />
        )
      ) : (
        <>
          <AuditTable entries={log.entries} showOperator={showOperator} />
          {log.cursor ? (
            <div class="more">
              <Button variant="secondary" busy={log.loading} onClick={() => void log.more()}>
                Load older entries
              </Button>
            </div>
          ) : null}
        </>
      )}
    </>
  );
}

export function AuditPage() {
  const log = useAuditLog('/operator/audit');
  return (
    <>
      <PageHeader
        title="Audit log"
        lead="Who changed what in your account, and when: keys, origins, webhook settings and the provider's changes."
      />
      <AuditView log={log} />
    </>
  );
}
