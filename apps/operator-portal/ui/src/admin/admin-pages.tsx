/** The provider's admin (role provider_admin): a separate lazy chunk, never downloaded by operators. */
import { PORTAL_LIMITS } from '@expedition/contracts/rules';
import { useEffect, useState } from 'preact/hooks';
import { Badge, Button, ConfirmDialog, CopyButton, EmptyState, SelectField, TextField, useToast } from '@expedition/ui';
import { ApiError, errorMessage } from '../api/client';
import type {
  AdminOperatorDetail,
  AdminOperatorList,
  AdminOperatorPatch,
  AdminOperatorResponse,
  AdminRotateSecretResponse,
  WebhookEventSummary,
} from '../api/types';
import { Banner, Dl, Loaded, PageHeader, Section, TableWrap } from '../components';
import { formatBps, formatDateTime, formatRelative, parseBps, shortKey } from '../format';
import { useResource } from '../hooks';
import { navigate, useLocation, type Params } from '../router';
import { useSession } from '../session';
import { AuditView, useAuditLog } from '../pages/audit-page';
import { ModeBadge } from '../pages/dashboard-page';
import { KeyStateBadge } from '../pages/keys-page';
import { EventLog, useEventLog } from '../pages/webhooks-page';

/** "12.5%. " under the basis-points field, or nothing while the input is not a valid number. */
function bpsPreview(text: string): string {
  const value = parseBps(text);
  return value === null ? '' : `${formatBps(value)}. `;
}

const STATUS_TONE = { active: 'success', pending: 'warning', suspended: 'danger' } as const;

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
              <TableWrap label="Operators">
                <table class="table table--stack">
                  <thead>
                    <tr>
                      <th scope="col">Operator</th>
                      <th scope="col">Status</th>
                      <th scope="col">Live embedding</th>
                      <th scope="col">Tier</th>
                      <th scope="col" class="num">
                        Commission
                      </th>
                      <th scope="col">Webhook</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
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
                  </tbody>
                </table>
              </TableWrap>
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

export function AdminOperatorPage({ params }: { params: Params }) {
  const id = params['id'] ?? '';
  const base = `/admin/operators/${encodeURIComponent(id)}`;
  const detail = useResource<AdminOperatorDetail>(base);
  return (
    <>
      <PageHeader title={detail.data?.operator.name ?? 'Operator'} lead={<a href="/admin">← All operators</a>} />
      <Loaded resource={detail} label="operator">
        {(d) => <OperatorAdmin detail={d} base={base} reload={detail.reload} />}
      </Loaded>
    </>
  );
}

function OperatorAdmin({
  detail,
  base,
  reload,
}: {
  detail: AdminOperatorDetail;
  base: string;
  reload: () => Promise<void>;
}) {
  const { api } = useSession();
  const toast = useToast();
  const o = detail.operator;
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState<null | {
    title: string;
    body: string;
    label: string;
    danger?: boolean;
    patch: AdminOperatorPatch;
  }>(null);
  const [tier, setTier] = useState(String(o.integrationTier));
  const [bps, setBps] = useState(String(o.commissionRateBps));
  const [bpsError, setBpsError] = useState<string | null>(null);
  const [url, setUrl] = useState(o.webhookUrl ?? '');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [overlap, setOverlap] = useState('24');
  const [rotating, setRotating] = useState(false);
  const [newSecret, setNewSecret] = useState<AdminRotateSecretResponse | null>(null);
  const [resendingId, setResendingId] = useState<string | null>(null);
  const log = useEventLog(`${base}/webhook-events`);
  const audit = useAuditLog(`/admin/audit?operatorId=${encodeURIComponent(o.id)}`);

  async function patch(body: AdminOperatorPatch, done: string) {
    setBusy(true);
    try {
      await api.patch<AdminOperatorResponse>(base, body);
      toast.success(done);
      setConfirm(null);
      await reload();
      await audit.reload();
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  const overlapHours = Number(overlap);
  return (
    <>
      {o.status !== 'active' ? (
        <Banner tone="danger" title={`This operator is ${o.status}`}>
          Every key of this operator is refused by the widget.
        </Banner>
      ) : null}
      <Section title="Approval">
        <Dl
          items={[
            ['Status', <Badge tone={STATUS_TONE[o.status]}>{o.status}</Badge>],
            ['Live embedding', o.embeddingEnabled ? 'enabled: live keys work' : 'disabled: test keys only'],
            ['Contact', o.contactEmail ?? '—'],
            ['Website', o.websiteUrl ?? '—'],
            ['Operator id', <code class="mono">{o.id}</code>],
          ]}
        />
        <div class="button-row">
          {o.embeddingEnabled ? (
            <Button
              variant="secondary"
              onClick={() =>
                setConfirm({
                  title: 'Disable live embedding?',
                  body: 'Live keys of this operator are refused at once; test keys keep working.',
                  label: 'Disable live embedding',
                  danger: true,
                  patch: { embeddingEnabled: false },
                })
              }
            >
              Disable live embedding
            </Button>
          ) : (
            <Button
              onClick={() =>
                setConfirm({
                  title: 'Enable live embedding?',
                  body: 'Approves live sales: this operator’s live keys start working on its allowed origins.',
                  label: 'Enable live embedding',
                  patch: { embeddingEnabled: true },
                })
              }
            >
              Enable live embedding
            </Button>
          )}
          {o.status === 'active' ? (
            <Button
              variant="danger"
              onClick={() =>
                setConfirm({
                  title: 'Deactivate this operator?',
                  body: 'Every key (test and live) is refused at once and the widget shows an error on its pages. You can reactivate it later.',
                  label: 'Deactivate operator',
                  danger: true,
                  patch: { status: 'suspended' },
                })
              }
            >
              Deactivate
            </Button>
          ) : (
            <Button
              variant="secondary"
              onClick={() =>
                setConfirm({
                  title: 'Reactivate this operator?',
                  body: 'Its keys work again (live keys only if live embedding is enabled).',
                  label: 'Reactivate',
                  patch: { status: 'active' },
                })
              }
            >
              Reactivate
            </Button>
          )}
        </div>
      </Section>
      <Section title="Integration tier and commission">
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            void patch({ integrationTier: Number(tier) as 1 | 2 | 3 }, `Tier set to ${tier}.`);
          }}
        >
          <SelectField
            label="Highest tier allowed"
            value={tier}
            onChange={(e) => setTier((e.currentTarget as HTMLSelectElement).value)}
          >
            <option value="1">1: hosted quote page link</option>
            <option value="2">2: iframe quotes, hosted checkout</option>
            <option value="3">3: checkout inside the iframe</option>
          </SelectField>
          <Button type="submit" variant="secondary" disabled={tier === String(o.integrationTier)} busy={busy}>
            Save tier
          </Button>
        </form>
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            const value = parseBps(bps);
            if (value === null) {
              setBpsError(`A whole number of basis points from 0 to ${PORTAL_LIMITS.maxCommissionBps} (1000 = 10%).`);
              return;
            }
            setBpsError(null);
            void patch({ commissionRateBps: value }, `Commission set to ${formatBps(value)} for future sales.`);
          }}
        >
          <TextField
            label="Commission (basis points)"
            inputMode="numeric"
            value={bps}
            error={bpsError}
            hint={`${bpsPreview(bps)}Applies to sales after the change; past commissions never change.`}
            onInput={(e) => setBps((e.currentTarget as HTMLInputElement).value)}
          />
          <Button type="submit" variant="secondary" disabled={bps.trim() === String(o.commissionRateBps)} busy={busy}>
            Save commission
          </Button>
        </form>
      </Section>
      <Section title="Webhook">
        <form
          class="inline-form"
          onSubmit={async (event) => {
            event.preventDefault();
            setBusy(true);
            setUrlError(null);
            try {
              await api.put(`${base}/webhook`, { url: url.trim() ? url.trim() : null });
              toast.success(url.trim() ? 'Webhook URL saved.' : 'Webhook removed.');
              await reload();
            } catch (e) {
              setUrlError(e instanceof ApiError && e.status === 400 ? e.message : errorMessage(e));
            } finally {
              setBusy(false);
            }
          }}
        >
          <TextField
            label="Endpoint URL"
            class="grow"
            type="url"
            inputMode="url"
            placeholder="https://operator.example/webhooks/svc"
            hint="https, or http to localhost. Empty removes the webhook."
            value={url}
            error={urlError}
            onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)}
          />
          <Button type="submit" variant="secondary" busy={busy}>
            Save URL
          </Button>
        </form>
        <p>
          Signing secret: {o.webhookSecretSet ? 'set' : 'not set'}
          {o.previousSecretExpiresAt
            ? `; the previous secret also signs until ${formatDateTime(o.previousSecretExpiresAt)} (${formatRelative(o.previousSecretExpiresAt)})`
            : ''}
          .
        </p>
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            setRotating(true);
          }}
        >
          <TextField
            label={`Overlap (hours, 0–${PORTAL_LIMITS.maxSecretOverlapHours})`}
            type="number"
            min={0}
            max={PORTAL_LIMITS.maxSecretOverlapHours}
            step={1}
            value={overlap}
            hint="How long the old secret keeps signing next to the new one."
            onInput={(e) => setOverlap((e.currentTarget as HTMLInputElement).value)}
          />
          <Button type="submit" variant="secondary" disabled={!o.webhookUrl}>
            {o.webhookSecretSet ? 'Rotate secret' : 'Generate secret'}
          </Button>
        </form>
        {!o.webhookUrl ? <p class="muted small">Set the endpoint URL first.</p> : null}
        {newSecret ? (
          <Banner tone="warning" title="Copy the new signing secret now">
            <p>
              It is shown once here. Give it to the operator securely (its owners can also reveal it in their portal).
            </p>
            <div class="secret">
              <code class="mono secret__value" data-testid="new-webhook-secret">
                {newSecret.secret}
              </code>
              <CopyButton text={newSecret.secret} label="webhook signing secret" />
            </div>
            {newSecret.previousSecretExpiresAt ? (
              <p class="small">
                The previous secret keeps signing until {formatDateTime(newSecret.previousSecretExpiresAt)}.
              </p>
            ) : null}
            <Button variant="secondary" small onClick={() => setNewSecret(null)}>
              Done
            </Button>
          </Banner>
        ) : null}
      </Section>
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
      <Section title="Delivery log">
        <EventLog
          log={log}
          busyId={resendingId}
          onResend={async (e: WebhookEventSummary) => {
            setResendingId(e.id);
            try {
              await api.post(`${base}/webhook-events/${encodeURIComponent(e.id)}/resend`);
              toast.success(`${e.eventId} queued for a new attempt.`);
              await log.reload();
            } catch (err) {
              toast.error(errorMessage(err));
            } finally {
              setResendingId(null);
            }
          }}
        />
      </Section>
      <Section title="Audit log">
        <AuditView log={audit} />
      </Section>

      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.title ?? ''}
        confirmLabel={confirm?.label ?? 'Confirm'}
        danger={confirm?.danger}
        busy={busy}
        onCancel={() => setConfirm(null)}
        onConfirm={() => confirm && void patch(confirm.patch, 'Saved.')}
      >
        <p>{confirm?.body}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={rotating}
        title={o.webhookSecretSet ? 'Rotate the signing secret?' : 'Generate a signing secret?'}
        confirmLabel={o.webhookSecretSet ? 'Rotate secret' : 'Generate secret'}
        danger={o.webhookSecretSet && overlapHours === 0}
        busy={busy}
        confirmDisabled={
          !Number.isInteger(overlapHours) || overlapHours < 0 || overlapHours > PORTAL_LIMITS.maxSecretOverlapHours
        }
        onCancel={() => setRotating(false)}
        onConfirm={async () => {
          setBusy(true);
          try {
            setNewSecret(await api.post<AdminRotateSecretResponse>(`${base}/webhook/secret`, { overlapHours }));
            setRotating(false);
            toast.success('New signing secret generated.');
            await reload();
            await audit.reload();
          } catch (e) {
            toast.error(errorMessage(e));
          } finally {
            setBusy(false);
          }
        }}
      >
        <p>
          {o.webhookSecretSet
            ? overlapHours > 0
              ? `For ${overlapHours} hours every webhook carries two signatures (one v1= per secret), so the operator's receiver keeps working while it switches.`
              : 'The old secret stops signing at once: the operator’s receiver rejects webhooks until it has the new secret.'
            : 'Webhooks to this operator will be signed with the new secret.'}
        </p>
      </ConfirmDialog>
    </>
  );
}

export function AdminAuditPage() {
  const location = useLocation();
  const operatorId = location.search.get('operatorId');
  const log = useAuditLog(`/admin/audit${operatorId ? `?operatorId=${encodeURIComponent(operatorId)}` : ''}`);
  return (
    <>
      <PageHeader
        title="Audit log"
        lead="Every admin and key action, for every operator: who, what, when, before → after."
      />
      <AuditView log={log} showOperator />
    </>
  );
}
