import { PORTAL_LIMITS, type Mode } from '@expedition/contracts/rules';
import { useState } from 'preact/hooks';
import {
  Badge,
  Button,
  ConfirmDialog,
  CopyButton,
  EmptyState,
  SelectField,
  TextField,
  type BadgeTone,
} from '@expedition/ui';
import type { PortalPublishableKey, PublishableKeyList, RotateKeyResponse } from '../api/types';
import { ActionsHeader, Banner, Loaded, Secret, Section, StackTable } from '../components';
import { formatDateTime, formatRelative, keyState, localInputToIso, shortKey, type KeyState } from '../format';
import { useResource } from '../hooks';
import { useSession } from '../session';
import { ModeBadge } from './dashboard-page';
import { type KeyAction, RevokeKeyDialog } from './revoke-key-dialog';

const STATE_TONE: Record<KeyState, BadgeTone> = {
  active: 'success',
  expiring: 'warning',
  expired: 'neutral',
  revoked: 'danger',
};

const REFUSAL_TEXT: Record<string, string> = {
  revoked: 'revoked',
  expired: 'expired',
  operator_inactive: 'refused: account not active',
  embedding_disabled: 'refused until the provider enables live embedding',
};

export function KeyStateBadge({ k }: { k: PortalPublishableKey }) {
  const state = keyState(k);
  // A usable key the gate refuses today (a live key before the provider's approval) must not look green.
  if (state === 'active' && !k.accepted && k.refusal === 'embedding_disabled') {
    return (
      <Badge tone="warning" title={REFUSAL_TEXT['embedding_disabled']}>
        awaiting approval
      </Badge>
    );
  }
  const title = state === 'expiring' && k.expiresAt ? `Stops working ${formatDateTime(k.expiresAt)}` : undefined;
  return (
    <Badge tone={STATE_TONE[state]} title={title}>
      {state === 'expiring' && k.expiresAt ? `expires ${formatRelative(k.expiresAt)}` : state}
    </Badge>
  );
}

type Grace = 'now' | '24h' | '7d' | 'date';

/** The publishable keys of the API keys page: create, rotate with a grace, revoke. */
export function PublishableKeysSection({ act, busy }: { act: KeyAction; busy: boolean }) {
  const { api } = useSession();
  const keys = useResource<PublishableKeyList>('/operator/keys');

  const [createMode, setCreateMode] = useState<Mode>('test');
  const [createLabel, setCreateLabel] = useState('');
  const [creating, setCreating] = useState(false);

  const [revoking, setRevoking] = useState<PortalPublishableKey | null>(null);
  const [rotating, setRotating] = useState<PortalPublishableKey | null>(null);
  const [grace, setGrace] = useState<Grace>('24h');
  const [graceDate, setGraceDate] = useState('');
  const [rotated, setRotated] = useState<string | null>(null);

  const graceIso = grace === 'date' ? localInputToIso(graceDate) : null;
  return (
    <>
      <Section title="Publishable keys">
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            setCreating(true);
            void act(async () => {
              await api.post('/operator/keys', {
                mode: createMode,
                ...(createLabel.trim() ? { label: createLabel.trim() } : {}),
              });
              setCreateLabel('');
              await keys.reload();
            }, `New ${createMode} key created.`).finally(() => setCreating(false));
          }}
        >
          <SelectField
            label="Mode"
            value={createMode}
            onChange={(e) => setCreateMode((e.currentTarget as HTMLSelectElement).value as Mode)}
          >
            <option value="test">Test</option>
            <option value="live">Live</option>
          </SelectField>
          <TextField
            label="Label (optional)"
            maxLength={PORTAL_LIMITS.maxKeyLabel}
            value={createLabel}
            placeholder="e.g. main website"
            onInput={(e) => setCreateLabel((e.currentTarget as HTMLInputElement).value)}
          />
          <Button type="submit" busy={creating}>
            Create key
          </Button>
        </form>
        {rotated ? (
          <Banner tone="success" title="New key ready">
            <p>Put it on your pages; the old key keeps working until the time you chose.</p>
            <Secret value={rotated} label="new publishable key" />
            <Button variant="secondary" small onClick={() => setRotated(null)}>
              Done
            </Button>
          </Banner>
        ) : null}
        <Loaded resource={keys} label="keys">
          {(data) =>
            data.keys.length === 0 ? (
              <EmptyState title="No publishable keys">Create a test key to try the widget on your pages.</EmptyState>
            ) : (
              <StackTable
                label="Publishable keys"
                head={
                  <>
                    <th scope="col">Key</th>
                    <th scope="col">Mode</th>
                    <th scope="col">State</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <ActionsHeader />
                  </>
                }
              >
                {data.keys.map((k) => {
                  const state = keyState(k);
                  const usable = state === 'active' || state === 'expiring';
                  return (
                    <tr key={k.id} data-key-id={k.id}>
                      <td data-label="Key">
                        <div class="key-cell">
                          <code class="mono" title={k.key}>
                            {shortKey(k.key)}
                          </code>
                          <CopyButton text={k.key} label={`${k.mode} key ${k.label ?? shortKey(k.key)}`} />
                        </div>
                        {k.label ? <div class="muted small">{k.label}</div> : null}
                        {!k.accepted && k.refusal && usable ? (
                          <div class="warning-text small">{REFUSAL_TEXT[k.refusal] ?? k.refusal}</div>
                        ) : null}
                      </td>
                      <td data-label="Mode">
                        <ModeBadge mode={k.mode} />
                      </td>
                      <td data-label="State">
                        <KeyStateBadge k={k} />
                      </td>
                      <td data-label="Created">{formatDateTime(k.createdAt)}</td>
                      <td data-label="Last used" title={k.lastUsedAt ? formatDateTime(k.lastUsedAt) : undefined}>
                        {formatRelative(k.lastUsedAt)}
                      </td>
                      <td class="actions">
                        {state === 'active' ? (
                          <Button
                            variant="secondary"
                            small
                            onClick={() => (setGrace('24h'), setGraceDate(''), setRotating(k))}
                            aria-label={`Rotate ${shortKey(k.key)}`}
                          >
                            Rotate
                          </Button>
                        ) : null}
                        {usable ? (
                          <Button
                            variant="secondary"
                            small
                            onClick={() => setRevoking(k)}
                            aria-label={`Revoke ${shortKey(k.key)}`}
                          >
                            Revoke
                          </Button>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </StackTable>
            )
          }
        </Loaded>
      </Section>

      <RevokeKeyDialog
        target={revoking}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        basePath="/operator/keys"
        done="Key revoked."
        act={act}
        busy={busy}
        onClose={() => setRevoking(null)}
        reload={keys.reload}
      >
        <p>
          <code class="mono">{revoking ? shortKey(revoking.key) : ''}</code> stops working at once: every page that
          still uses it shows the widget's error instead of quotes. This cannot be undone.
        </p>
      </RevokeKeyDialog>

      <ConfirmDialog
        open={rotating !== null}
        title="Rotate this key"
        confirmLabel={grace === 'now' ? 'Rotate and stop the old key now' : 'Rotate key'}
        danger={grace === 'now'}
        busy={busy}
        confirmDisabled={grace === 'date' && !graceIso}
        onCancel={() => setRotating(null)}
        onConfirm={() =>
          void act(async () => {
            const body = grace === 'date' ? { expiresAt: graceIso } : { grace };
            const answer = await api.post<RotateKeyResponse>(
              `/operator/keys/${encodeURIComponent(rotating?.id ?? '')}/rotate`,
              body,
            );
            setRotating(null);
            await keys.reload();
            setRotated(answer.newKey.key);
          }, 'Key rotated.')
        }
      >
        <p>
          We create a new {rotating?.mode} key. Deploy it on your pages, then let the old one (
          <code class="mono">{rotating ? shortKey(rotating.key) : ''}</code>) expire. When should the old key stop
          working?
        </p>
        <fieldset class="radio-group">
          <legend>Old key keeps working</legend>
          {(
            [
              ['24h', 'For 24 hours'],
              ['7d', 'For 7 days'],
              ['date', 'Until a date I choose'],
              ['now', 'Stop it now (pages using it break at once)'],
            ] as const
          ).map(([id, text]) => (
            <label key={id} class="radio">
              <input type="radio" name="grace" value={id} checked={grace === id} onChange={() => setGrace(id)} /> {text}
            </label>
          ))}
        </fieldset>
        {grace === 'date' ? (
          <TextField
            label="Old key stops at (your local time)"
            type="datetime-local"
            required
            value={graceDate}
            hint="At most 30 days from now."
            onInput={(e) => setGraceDate((e.currentTarget as HTMLInputElement).value)}
          />
        ) : null}
      </ConfirmDialog>
    </>
  );
}
