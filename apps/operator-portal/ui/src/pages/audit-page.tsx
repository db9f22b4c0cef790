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

/** A compact "before → after" of the changed fields only. */
export function describeChange(before: unknown, after: unknown): string {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    const changed = keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
    return changed.map((k) => `${k}: ${show(before[k])} → ${show(after[k])}`).join('; ');
  }
  if (before == null && after == null) return '';
  if (before == null) return show(after);
  return `${show(before)} → ${show(after)}`;
}
const show = (v: unknown) => (v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

export function AuditTable({ entries, showOperator }: { entries: AuditEntry[]; showOperator?: (id: string | null) => string | null }) {
  if (entries.length === 0) return <EmptyState title="Nothing recorded yet">Key, origin, webhook and settings changes are recorded here.</EmptyState>;
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
              <td data-label="When" class="small nowrap">{formatDateTime(e.at)}</td>
              <td data-label="Who" class="small">{e.actor.email ?? '—'}{e.actor.role ? <div class="muted">{e.actor.role.replace('_', ' ')}</div> : null}</td>
              <td data-label="What">{describeAction(e.action)}{e.targetId ? <div class="small muted mono">{e.targetId}</div> : null}</td>
              {showOperator ? <td data-label="Operator" class="small">{showOperator(e.operatorId)}</td> : null}
              <td data-label="Change" class="small change">{describeChange(e.before, e.after) || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
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
      const answer = await api.get<AuditList>(!reset && cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path);
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

export function AuditView({ log, showOperator }: { log: ReturnType<typeof useAuditLog>; showOperator?: (id: string | null) => string | null }) {
  return (
    <>
      {log.error ? <ErrorNote message={log.error} onRetry={() => void log.reload()} /> : null}
      {log.entries === null ? (
        log.error ? null : <Spinner label="Loading the audit log…" />
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
      <PageHeader title="Audit log" lead="Who changed what in your account, and when: keys, origins, webhook settings and the provider's changes." />
      <AuditView log={log} />
    </>
  );
}
