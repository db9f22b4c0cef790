import { useEffect, useState } from 'preact/hooks';
import { Badge, Button, EmptyState, TextField } from '@expedition/ui';
import type { AdminOperatorList } from '../api/types';
import { Loaded, PageHeader, StackTable } from '../components';
import { formatBps, formatDateTime } from '../format';
import { useResource } from '../hooks';
import { navigate, useLocation } from '../router';

export const STATUS_TONE = { active: 'success', pending: 'warning', suspended: 'danger' } as const;

export function AdminOperatorsPage() {
  const location = useLocation();
  const q = location.search.get('q') ?? '';
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  const list = useResource<AdminOperatorList>(`/admin/operators${q ? `?q=${encodeURIComponent(q)}` : ''}`);
  return (
    <>
      <PageHeader title="Operators" lead="Approve live embedding, set tiers, webhooks and commission." />
      <form
        role="search"
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          navigate(text.trim() ? `/admin?q=${encodeURIComponent(text.trim())}` : '/admin');
        }}
      >
        <TextField
          label="Search operators"
          class="grow"
          type="search"
          placeholder="Name, e-mail or id"
          value={text}
          onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
        />
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      <Loaded resource={list} label="operators">
        {(data) =>
          data.operators.length === 0 ? (
            <EmptyState title={q ? `No operator matches “${q}”` : 'No operators yet'}>
              {q ? 'Try part of the name or a user’s e-mail.' : 'Operators appear here when they sign up.'}
            </EmptyState>
          ) : (
            <>
              <StackTable
                label="Operators"
                head={
                  <>
                    <th scope="col">Operator</th>
                    <th scope="col">Status</th>
                    <th scope="col">Live embedding</th>
                    <th scope="col">Tier</th>
                    <th scope="col" class="num">
                      Commission
                    </th>
                    <th scope="col">Webhook</th>
                    <th scope="col">Created</th>
                  </>
                }
              >
                {data.operators.map((o) => (
                  <tr key={o.id}>
                    <td data-label="Operator">
                      <a href={`/admin/operators/${encodeURIComponent(o.id)}`}>{o.name}</a>
                      {o.contactEmail ? <div class="small muted">{o.contactEmail}</div> : null}
                    </td>
                    <td data-label="Status">
                      <Badge tone={STATUS_TONE[o.status]}>{o.status}</Badge>
                    </td>
                    <td data-label="Live embedding">
                      {o.embeddingEnabled ? <Badge tone="success">enabled</Badge> : <Badge>disabled</Badge>}
                    </td>
                    <td data-label="Tier">{o.integrationTier}</td>
                    <td data-label="Commission" class="num">
                      {formatBps(o.commissionRateBps)}
                    </td>
                    <td data-label="Webhook" class="small">
                      {o.webhookUrl ? (o.webhookSecretSet ? 'URL + secret' : 'URL, no secret') : '—'}
                    </td>
                    <td data-label="Created" class="small">
                      {formatDateTime(o.createdAt)}
                    </td>
                  </tr>
                ))}
              </StackTable>
              {data.truncated ? (
                <p class="muted small">Showing the newest 100 matches; refine the search to see others.</p>
              ) : null}
            </>
          )
        }
      </Loaded>
    </>
  );
}
