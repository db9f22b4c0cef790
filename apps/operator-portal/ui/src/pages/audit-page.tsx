import { EmptyState } from '@expedition/ui';
import type { AuditEntry, AuditList } from '../api/types';
import { Paged, PageHeader, StackTable } from '../components';
import { usePagedList } from '../hooks';
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
    <StackTable
      label="Audit log entries"
      head={
        <>
          <th scope="col">When</th>
          <th scope="col">Who</th>
          <th scope="col">What</th>
          {showOperator ? <th scope="col">Operator</th> : null}
          <th scope="col">Change</th>
        </>
      }
    >
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
    </StackTable>
  );
}

function changeLines(e: AuditEntry) {
  const lines = describeChange(e.before, e.after);
  return lines.length ? lines.map((line, i) => <div key={i}>{line}</div>) : '—';
}

/** Cursor-paged audit list of any path answering AuditList. */
export function useAuditLog(path: string) {
  const { api } = useSession();
  return usePagedList<AuditEntry>(
    async (cursor) => {
      const sep = path.includes('?') ? '&' : '?';
      const answer = await api.get<AuditList>(cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path);
      return { items: answer.entries, nextCursor: answer.nextCursor };
    },
    [path],
  );
}

export function AuditView({ log, showOperator }: { log: ReturnType<typeof useAuditLog>; showOperator?: boolean }) {
  return (
    <Paged list={log} loadingLabel="Loading the audit log…" moreLabel="Load older entries">
      {(entries) => <AuditTable entries={entries} showOperator={showOperator} />}
    </Paged>
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
