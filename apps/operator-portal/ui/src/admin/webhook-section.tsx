import { PORTAL_LIMITS } from '@expedition/contracts/rules';
import { useState } from 'preact/hooks';
import { Button, ConfirmDialog, CopyButton, TextField, useToast } from '@expedition/ui';
import { ApiError, errorMessage } from '../api/client';
import type { AdminOperatorDetail, AdminRotateSecretResponse } from '../api/types';
import { Banner, Section } from '../components';
import { formatDateTime, formatRelative } from '../format';
import { useSession } from '../session';

/** The operator's webhook: its URL, and the signing secret (generate or rotate with an overlap, shown once). */
export function WebhookSection({
  operator: o,
  base,
  reload,
  audit,
  busy,
  setBusy,
}: {
  operator: AdminOperatorDetail['operator'];
  base: string;
  reload: () => Promise<void>;
  audit: { reload: () => Promise<void> };
  busy: boolean;
  setBusy: (busy: boolean) => void;
}) {
  const { api } = useSession();
  const toast = useToast();
  const [url, setUrl] = useState(o.webhookUrl ?? '');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [overlap, setOverlap] = useState('24');
  const [rotating, setRotating] = useState(false);
  const [newSecret, setNewSecret] = useState<AdminRotateSecretResponse | null>(null);

  const overlapHours = Number(overlap);
  return (
    <>
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
