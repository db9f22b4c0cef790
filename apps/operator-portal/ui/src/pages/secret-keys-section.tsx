import type { Mode } from '@expedition/contracts/rules';
import { useState } from 'preact/hooks';
import { Badge, Button, CopyButton, EmptyState, SelectField } from '@expedition/ui';
import type { CreateSecretKeyResponse, PortalSecretKey, SecretKeyList } from '../api/types';
import { ActionsHeader, Banner, Loaded, Section, StackTable } from '../components';
import { formatDateTime, formatRelative } from '../format';
import { useResource } from '../hooks';
import { useSession } from '../session';
import { ModeBadge } from './dashboard-page';
import { type KeyAction, RevokeKeyDialog } from './revoke-key-dialog';

/** The secret keys of the API keys page: owners mint (shown once) and revoke; members only see the list. */
export function SecretKeysSection({ act, busy, isOwner }: { act: KeyAction; busy: boolean; isOwner: boolean }) {
  const { api } = useSession();
  const secretKeys = useResource<SecretKeyList>('/operator/secret-keys');
  const [minted, setMinted] = useState<CreateSecretKeyResponse | null>(null);
  const [mintMode, setMintMode] = useState<Mode>('test');
  const [revokingSecret, setRevokingSecret] = useState<PortalSecretKey | null>(null);

  return (
    <>
      <Section title="Secret keys">
        <p class="muted">
          Secret keys (<code>sk_op_…</code>) are for your servers. No route accepts them yet; mint one when you need it.
          We store only a hash: a key is shown once, when you create it.
        </p>
        {isOwner ? (
          <form
            class="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              void act(async () => {
                const answer = await api.post<CreateSecretKeyResponse>('/operator/secret-keys', { mode: mintMode });
                setMinted(answer);
                await secretKeys.reload();
              }, 'Secret key created. Copy it now.');
            }}
          >
            <SelectField
              label="Mode"
              value={mintMode}
              onChange={(e) => setMintMode((e.currentTarget as HTMLSelectElement).value as Mode)}
            >
              <option value="test">Test</option>
              <option value="live">Live</option>
            </SelectField>
            <Button type="submit" busy={busy && !revokingSecret}>
              Create secret key
            </Button>
          </form>
        ) : (
          <p class="muted small">Only an owner of the account can create or revoke secret keys.</p>
        )}
        {minted ? (
          <Banner tone="warning" title="Copy your secret key now">
            <p>
              This is the only time it is shown. Store it in your server's secret store; if you lose it, revoke it and
              create another.
            </p>
            <div class="secret">
              <code class="mono secret__value" data-testid="minted-secret">
                {minted.secretKey}
              </code>
              <CopyButton text={minted.secretKey} label="secret key" />
            </div>
            <Button variant="secondary" small onClick={() => setMinted(null)}>
              I have stored it
            </Button>
          </Banner>
        ) : null}
        <Loaded resource={secretKeys} label="secret keys">
          {(data) =>
            data.secretKeys.length === 0 ? (
              <EmptyState title="No secret keys">You have not created any secret key.</EmptyState>
            ) : (
              <StackTable
                label="Secret keys"
                head={
                  <>
                    <th scope="col">Prefix</th>
                    <th scope="col">Mode</th>
                    <th scope="col">State</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <ActionsHeader />
                  </>
                }
              >
                {data.secretKeys.map((k) => (
                  <tr key={k.id}>
                    <td data-label="Prefix">
                      <code class="mono">{k.prefix.endsWith('…') ? k.prefix : `${k.prefix}…`}</code>
                    </td>
                    <td data-label="Mode">
                      <ModeBadge mode={k.mode} />
                    </td>
                    <td data-label="State">
                      {k.revokedAt ? <Badge tone="danger">revoked</Badge> : <Badge tone="success">active</Badge>}
                    </td>
                    <td data-label="Created">{formatDateTime(k.createdAt)}</td>
                    <td data-label="Last used">{formatRelative(k.lastUsedAt)}</td>
                    <td class="actions">
                      {isOwner && !k.revokedAt ? (
                        <Button
                          variant="secondary"
                          small
                          onClick={() => setRevokingSecret(k)}
                          aria-label={`Revoke secret key ${k.prefix}`}
                        >
                          Revoke
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </StackTable>
            )
          }
        </Loaded>
      </Section>

      <RevokeKeyDialog
        target={revokingSecret}
        title="Revoke this secret key?"
        confirmLabel="Revoke secret key"
        basePath="/operator/secret-keys"
        done="Secret key revoked."
        act={act}
        busy={busy}
        onClose={() => setRevokingSecret(null)}
        reload={secretKeys.reload}
      >
        <p>
          <code class="mono">{revokingSecret?.prefix}…</code> stops working at once. This cannot be undone.
        </p>
      </RevokeKeyDialog>
    </>
  );
}
