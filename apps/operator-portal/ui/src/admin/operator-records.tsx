import { Badge, EmptyState } from '@expedition/ui';
import type { AdminOperatorDetail } from '../api/types';
import { Section } from '../components';
import { formatRelative, shortKey } from '../format';
import { ModeBadge } from '../pages/dashboard-page';
import { KeyStateBadge } from '../pages/publishable-keys-section';

/** What the operator has set up itself, read-only here: its keys, allowed origins and users. */
export function OperatorRecords({ detail }: { detail: AdminOperatorDetail }) {
  return (
    <>
      <Section title="Publishable keys">
        {detail.keys.length === 0 ? (
          <EmptyState title="No keys" />
        ) : (
          <ul class="list">
            {detail.keys.map((k) => (
              <li key={k.id} class="list-row">
                <div>
                  <code class="mono">{shortKey(k.key)}</code> <ModeBadge mode={k.mode} /> <KeyStateBadge k={k} />
                  <div class="small muted">last used {formatRelative(k.lastUsedAt)}</div>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Allowed origins">
        {detail.origins.length === 0 ? (
          <EmptyState title="No origins" />
        ) : (
          <ul class="list">
            {detail.origins.map((x) => (
              <li key={x.origin} class="list-row">
                <code class="mono">{x.origin}</code>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Users">
        <ul class="list">
          {detail.users.map((u) => (
            <li key={u.id} class="list-row">
              <div>
                {u.email} <Badge>{u.role}</Badge> {u.disabled ? <Badge tone="danger">disabled</Badge> : null}
                <div class="small muted">
                  {u.emailVerified ? 'verified' : 'e-mail not verified'} · last log-in {formatRelative(u.lastLoginAt)}
                </div>
              </div>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
