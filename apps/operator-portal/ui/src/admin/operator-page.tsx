import { PORTAL_LIMITS } from '@expedition/contracts/rules';
import { useState } from 'preact/hooks';
import { Badge, Button, ConfirmDialog, SelectField, TextField, useToast } from '@expedition/ui';
import { errorMessage } from '../api/client';
import type { AdminOperatorDetail, AdminOperatorPatch, AdminOperatorResponse, WebhookEventSummary } from '../api/types';
import { Banner, Dl, Loaded, PageHeader, Section } from '../components';
import { formatBps, parseBps } from '../format';
import { useResource } from '../hooks';
import type { Params } from '../router';
import { useSession } from '../session';
import { AuditView, useAuditLog } from '../pages/audit-page';
import { EventLog, useEventLog } from '../pages/webhook-event-log';
import { OperatorRecords } from './operator-records';
import { STATUS_TONE } from './operators-page';
import { WebhookSection } from './webhook-section';

/** "12.5%. " under the basis-points field, or nothing while the input is not a valid number. */
function bpsPreview(text: string): string {
  const value = parseBps(text);
  return value === null ? '' : `${formatBps(value)}. `;
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
  const lookAlikes = lookAlikesOf(detail);
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

  return (
    <>
      {o.status !== 'active' ? (
        <Banner tone="danger" title={`This operator is ${o.status}`}>
          Every key of this operator is refused by the widget.
        </Banner>
      ) : null}
      {lookAlikes.length > 0 ? (
        <Banner tone="danger" title="Other operators have a name that reads like this one">
          Travelers see “Offered by {o.name}”. Check this is not a copy before enabling live embedding:{' '}
          {lookAlikes.map((other, i) => (
            <span key={other.id}>
              {i > 0 ? ', ' : ''}
              {/* Two names may read exactly alike: the id (as under Approval) tells them apart. */}
              <a href={`/admin/operators/${encodeURIComponent(other.id)}`}>{other.name}</a> ({other.status}
              {other.embeddingEnabled ? ', live' : ''}, id <code>{other.id.slice(0, 8)}</code>)
            </span>
          ))}
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
                  body:
                    'Approves live sales: this operator’s live keys start working on its allowed origins.' +
                    (lookAlikes.length > 0
                      ? ` Its name reads like ${lookAlikes.map((other) => `“${other.name}”`).join(', ')}.`
                      : ''),
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
      <WebhookSection operator={o} base={base} reload={reload} audit={audit} busy={busy} setBusy={setBusy} />
      <OperatorRecords detail={detail} />
      <Section title="Delivery log">
        <EventLog
          log={log}
          noUrl={!o.webhookUrl}
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
    </>
  );
}

interface LookAlike {
  id: string;
  name: string;
  status: string;
  embeddingEnabled: boolean;
}

/** The detail's `lookAlikes` (other operators whose name reads like this one's); none from an older server. */
function lookAlikesOf(detail: AdminOperatorDetail): LookAlike[] {
  const value = (detail as { lookAlikes?: unknown }).lookAlikes;
  return Array.isArray(value) ? (value as LookAlike[]) : [];
}
