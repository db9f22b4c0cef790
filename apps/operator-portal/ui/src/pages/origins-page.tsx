import { useState } from 'preact/hooks';
import { Badge, Button, ConfirmDialog, EmptyState, TextField, useToast } from '@expedition/ui';
import { ApiError, errorMessage } from '../api/client';
import type { AddOriginResponse, AllowedOriginList, OriginTestResponse } from '../api/types';
import { Loaded, PageHeader, Section, TableWrap } from '../components';
import { formatDateTime, shortKey } from '../format';
import { useResource } from '../hooks';
import { useSession } from '../session';
import { ModeBadge } from './dashboard-page';

/** What the tester's reasons mean, in words an operator acts on. */
export const REASON_TEXT: Record<string, string> = {
  accepted: 'Accepted',
  not_listed: 'Not in your allowed origins',
  loopback_test_only: 'localhost works with test keys only',
  key_revoked: 'This key is revoked',
  key_expired: 'This key has expired',
  operator_inactive: 'Your account is not active',
  embedding_disabled: 'Live keys wait for the provider to enable embedding',
};

export function OriginsPage() {
  const { api } = useSession();
  const toast = useToast();
  const origins = useResource<AllowedOriginList>('/operator/origins');
  const [origin, setOrigin] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [probe, setProbe] = useState('');
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<{ input: string; answer: OriginTestResponse } | null>(null);
  const [testError, setTestError] = useState<string | null>(null);

  return (
    <>
      <PageHeader
        title="Allowed origins"
        lead="The widget runs only on pages served from these origins. An origin is scheme://host[:port], with no path; www.example.com and example.com are separate entries."
      />
      <Section title="Add an origin">
        <form
          class="inline-form"
          onSubmit={async (event) => {
            event.preventDefault();
            setAdding(true);
            setAddError(null);
            try {
              const answer = await api.post<AddOriginResponse>('/operator/origins', { origin });
              toast.success(
                answer.added ? `${answer.origin.origin} added.` : `${answer.origin.origin} was already allowed.`,
              );
              setOrigin('');
              await origins.reload();
            } catch (e) {
              setAddError(e instanceof ApiError && e.status === 400 ? e.message : errorMessage(e));
            } finally {
              setAdding(false);
            }
          }}
        >
          <TextField
            label="Origin"
            class="grow"
            name="origin"
            required
            inputMode="url"
            autoComplete="off"
            spellcheck={false}
            placeholder="https://www.example.com"
            hint="localhost and 127.0.0.1 are accepted for test keys only."
            value={origin}
            error={addError}
            onInput={(e) => setOrigin((e.currentTarget as HTMLInputElement).value)}
          />
          <Button type="submit" busy={adding}>
            Add origin
          </Button>
        </form>
      </Section>
      <Section title="Your origins">
        <Loaded resource={origins} label="origins">
          {(data) =>
            data.origins.length === 0 ? (
              <EmptyState title="No origins yet">
                Add the origin of each site that shows the widget, for example https://www.example.com.
              </EmptyState>
            ) : (
              <ul class="list">
                {data.origins.map((o) => (
                  <li key={o.origin} class="list-row">
                    <div>
                      <code class="mono">{o.origin}</code>{' '}
                      {o.appliesTo.map((m) => (
                        <ModeBadge key={m} mode={m} />
                      ))}
                      {o.loopback ? <span class="muted small"> · loopback: test keys only</span> : null}
                      <div class="muted small">Added {formatDateTime(o.createdAt)}</div>
                    </div>
                    <Button
                      variant="secondary"
                      small
                      onClick={() => setRemoving(o.origin)}
                      aria-label={`Remove ${o.origin}`}
                    >
                      Remove
                    </Button>
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
      </Section>
      <Section title="Test an origin">
        <p class="muted">Would a page at this origin be accepted, and for which keys?</p>
        <form
          class="inline-form"
          onSubmit={async (event) => {
            event.preventDefault();
            setTesting(true);
            setTestError(null);
            try {
              setResult({
                input: probe.trim(),
                answer: await api.post<OriginTestResponse>('/operator/origins/test', { origin: probe }),
              });
            } catch (e) {
              setResult(null);
              setTestError(errorMessage(e));
            } finally {
              setTesting(false);
            }
          }}
        >
          <TextField
            label="Page address or origin"
            class="grow"
            required
            inputMode="url"
            autoComplete="off"
            spellcheck={false}
            placeholder="https://www.example.com/tours/antarctica"
            value={probe}
            error={testError}
            onInput={(e) => setProbe((e.currentTarget as HTMLInputElement).value)}
          />
          <Button type="submit" variant="secondary" busy={testing}>
            Test
          </Button>
        </form>
        {result ? <TestResult input={result.input} result={result.answer} /> : null}
      </Section>
      <ConfirmDialog
        open={removing !== null}
        title="Remove this origin?"
        confirmLabel="Remove origin"
        danger
        busy={busy}
        onCancel={() => setRemoving(null)}
        onConfirm={async () => {
          setBusy(true);
          try {
            await api.del(`/operator/origins?origin=${encodeURIComponent(removing ?? '')}`);
            toast.success(`${removing} removed.`);
            setRemoving(null);
            await origins.reload();
          } catch (e) {
            toast.error(errorMessage(e));
          } finally {
            setBusy(false);
          }
        }}
      >
        <p>
          Pages at <code class="mono">{removing}</code> stop showing quotes at once.
        </p>
      </ConfirmDialog>
    </>
  );
}

function TestResult({ input, result }: { input: string; result: OriginTestResponse }) {
  if (!result.valid || !result.normalized) {
    return (
      <p class="form-error" role="status">
        Not a valid origin{result.problem ? `: ${result.problem}` : '.'}
      </p>
    );
  }
  const accepted = result.results.filter((r) => r.accepted).length;
  return (
    <div class="test-result" role="status">
      {isPageAddress(input, result.normalized) ? (
        <p class="muted break">
          The page <code class="mono">{input}</code> is served from the origin{' '}
          <code class="mono">{result.normalized}</code>: that origin is what the widget checks.
        </p>
      ) : null}
      <p>
        <code class="mono">{result.normalized}</code> {result.listed ? 'is in your list' : 'is not in your list'}:{' '}
        {accepted ? `accepted for ${accepted} of ${result.results.length} keys.` : 'no key would be accepted.'}
      </p>
      {result.results.length ? (
        <TableWrap label="Origin test results">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Mode</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {result.results.map((r) => (
                <tr key={r.keyId}>
                  <td>
                    <code class="mono">{shortKey(r.key)}</code>
                  </td>
                  <td>
                    <ModeBadge mode={r.mode} />
                  </td>
                  <td>
                    {r.accepted ? <Badge tone="success">accepted</Badge> : <Badge tone="danger">refused</Badge>}{' '}
                    <span class="small">{r.accepted ? '' : (REASON_TEXT[r.reason] ?? r.reason)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
    </div>
  );
}

/** The input was a page's address (a path, query or fragment), not just its origin: say which origin was tested. */
function isPageAddress(input: string, origin: string): boolean {
  try {
    const url = new URL(input);
    return url.pathname !== '/' || url.search !== '' || url.hash !== '' || !input.startsWith(origin);
  } catch {
    return false;
  }
}
