import { useState } from 'preact/hooks';
import { Badge, Button, ConfirmDialog, EmptyState, SelectField, TextField, useToast } from '@expedition/ui';
import { ApiError, errorMessage } from '../api/client';
import type { TeamInvite, TeamMember, TeamResponse } from '../api/types';
import { Loaded, PageHeader, Section } from '../components';
import { formatDateTime, formatRelative } from '../format';
import { useResource } from '../hooks';
import { useSession, useSignedIn } from '../session';

export function TeamPage() {
  const { api } = useSession();
  const session = useSignedIn();
  const toast = useToast();
  const team = useResource<TeamResponse>('/team');
  const isOwner = session.user.role === 'owner';
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'member' | 'owner'>('member');
  const [inviteError, setInviteError] = useState<string | null>(null);
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const [withdrawing, setWithdrawing] = useState<TeamInvite | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm(action: () => Promise<void>, done: string) {
    setBusy(true);
    try {
      await action();
      toast.success(done);
      await team.reload();
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(false);
      setRemoving(null);
      setWithdrawing(null);
    }
  }

  return (
    <>
      <PageHeader
        title="Team"
        lead={
          isOwner
            ? 'Invite the people who run your integration. Owners manage the team and secret keys; members do the rest.'
            : 'The people of your account. Only an owner can invite or remove members.'
        }
      />
      {isOwner ? (
        <Section title="Invite a teammate">
          <form
            class="inline-form"
            onSubmit={async (event) => {
              event.preventDefault();
              setInviting(true);
              setInviteError(null);
              try {
                await api.post('/team/invites', { email, role });
                toast.success(`Invitation sent to ${email}.`);
                setEmail('');
                await team.reload();
              } catch (e) {
                setInviteError(e instanceof ApiError && e.status < 500 ? e.message : errorMessage(e));
              } finally {
                setInviting(false);
              }
            }}
          >
            <TextField
              label="E-mail"
              class="grow"
              type="email"
              required
              autoComplete="off"
              value={email}
              error={inviteError}
              onInput={(e) => setEmail((e.currentTarget as HTMLInputElement).value)}
            />
            <SelectField
              label="Role"
              value={role}
              onChange={(e) => setRole((e.currentTarget as HTMLSelectElement).value as 'member' | 'owner')}
            >
              <option value="member">Member</option>
              <option value="owner">Owner</option>
            </SelectField>
            <Button type="submit" busy={inviting}>
              Send invitation
            </Button>
          </form>
        </Section>
      ) : null}
      <Loaded resource={team} label="team">
        {(data) => (
          <>
            <Section title="Members">
              <ul class="list">
                {data.members.map((m) => (
                  <li key={m.id} class="list-row">
                    <div>
                      <strong>{m.name || m.email}</strong>{' '}
                      {m.id === session.user.id ? <span class="muted small">(you)</span> : null}
                      <div class="small muted">
                        {m.name ? `${m.email} · ` : ''}
                        <Badge tone={m.role === 'owner' ? 'info' : 'neutral'}>{m.role}</Badge>
                        {!m.emailVerified ? ' · e-mail not verified' : ''} · last log-in {formatRelative(m.lastLoginAt)}
                      </div>
                    </div>
                    {isOwner && m.id !== session.user.id ? (
                      <Button variant="secondary" small onClick={() => setRemoving(m)} aria-label={`Remove ${m.email}`}>
                        Remove
                      </Button>
                    ) : null}
                  </li>
                ))}
              </ul>
            </Section>
            <Section title="Pending invitations">
              {data.invites.length === 0 ? (
                <EmptyState title="No pending invitations" />
              ) : (
                <ul class="list">
                  {data.invites.map((i) => (
                    <li key={i.id} class="list-row">
                      <div>
                        <strong>{i.email}</strong> <Badge>{i.role}</Badge>
                        <div class="small muted">
                          Sent {formatDateTime(i.createdAt)} · expires {formatRelative(i.expiresAt)}
                        </div>
                      </div>
                      {isOwner ? (
                        <Button
                          variant="secondary"
                          small
                          onClick={() => setWithdrawing(i)}
                          aria-label={`Withdraw the invitation of ${i.email}`}
                        >
                          Withdraw
                        </Button>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </Section>
          </>
        )}
      </Loaded>
      <ConfirmDialog
        open={removing !== null}
        title="Remove this member?"
        confirmLabel="Remove member"
        danger
        busy={busy}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          void confirm(
            () => api.del(`/team/members/${encodeURIComponent(removing?.id ?? '')}`),
            `${removing?.email} removed.`,
          )
        }
      >
        <p>{removing?.email} loses access at once and is logged out everywhere.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={withdrawing !== null}
        title="Withdraw this invitation?"
        confirmLabel="Withdraw"
        danger
        busy={busy}
        onCancel={() => setWithdrawing(null)}
        onConfirm={() =>
          void confirm(
            () => api.del(`/team/invites/${encodeURIComponent(withdrawing?.id ?? '')}`),
            'Invitation withdrawn.',
          )
        }
      >
        <p>The link sent to {withdrawing?.email} stops working.</p>
      </ConfirmDialog>
    </>
  );
}
