import { formatMoney, type Mode } from '@expedition/contracts/rules';
import { useState } from 'preact/hooks';
import { Badge, Button, EmptyState, useToast } from '@expedition/ui';
import { errorMessage } from '../api/client';
import type { DashboardResponse, PortalOperatorResponse, PublishableKeyList } from '../api/types';
import { Banner, Loaded, PageHeader, Secret, Section, StackTable, TableWrap } from '../components';
import { formatDate, formatDateTime, formatPercent } from '../format';
import { useResource } from '../hooks';
import { useSession, useSignedIn } from '../session';
import { niceMax, polylinePoints, seriesOf, sum, type Metric } from './chart';

interface MetricInfo {
  id: Metric;
  label: string;
  money: boolean;
}
const QUOTES: MetricInfo = { id: 'quotes', label: 'Quotes', money: false };
const METRICS: MetricInfo[] = [
  QUOTES,
  { id: 'purchases', label: 'Purchases', money: false },
  { id: 'premiumCents', label: 'Premium', money: true },
  { id: 'commissionCents', label: 'Commission', money: true },
];

export function DashboardPage() {
  const session = useSignedIn();
  const operator = useResource<PortalOperatorResponse>('/operator');
  const keys = useResource<PublishableKeyList>('/operator/keys');
  const [days, setDays] = useState(30);
  const dashboard = useResource<DashboardResponse>(`/operator/dashboard?days=${days}`);
  // The newest active test key, as the Integration page's snippets use (GET /operator/keys lists oldest first).
  const testKey = keys.data?.keys.filter((k) => k.mode === 'test' && k.state === 'active').at(-1);
  return (
    <>
      <PageHeader
        title="Dashboard"
        lead={session.operator ? `${session.operator.name}: quotes, sales and commission from your widget.` : undefined}
      />
      {!session.user.emailVerified ? <VerifyBanner email={session.user.email} /> : null}
      {operator.data && !operator.data.operator.embeddingEnabled ? (
        <Banner tone="warning" title="Test mode works now">
          Live keys are refused until the provider enables embedding for your account. Build and test your integration
          with the test key; we will tell you when live sales are approved.
        </Banner>
      ) : null}
      {operator.data && operator.data.operator.status !== 'active' ? (
        <Banner tone="danger" title="Account not active">
          Your account is {operator.data.operator.status}: the widget refuses every key. Contact the provider.
        </Banner>
      ) : null}
      {testKey ? (
        <Section title="Your test key">
          <p class="muted">
            Paste it into the loader snippet (see <a href="/integration">Integration</a>) and allow your site's origin
            under <a href="/origins">Allowed origins</a>.
          </p>
          <Secret value={testKey.key} label="test publishable key" />
        </Section>
      ) : null}
      <Section
        title="Activity"
        actions={
          <div class="segmented" role="group" aria-label="Period">
            {[7, 30, 90].map((n) => (
              <button
                key={n}
                type="button"
                class="segmented__btn"
                aria-pressed={days === n ? 'true' : 'false'}
                onClick={() => setDays(n)}
              >
                {n} days
              </button>
            ))}
          </div>
        }
      >
        <Loaded resource={dashboard} label="figures">
          {(data) => <Figures data={data} />}
        </Loaded>
      </Section>
      <Section title="Recent policies">
        <Loaded resource={dashboard} label="policies">
          {(data) =>
            data.recentPolicies.length === 0 ? (
              <EmptyState title="No policies yet">
                Policies sold through your widget appear here, test and live.
              </EmptyState>
            ) : (
              <StackTable
                label="Recent policies"
                head={
                  <>
                    <th scope="col">Policy</th>
                    <th scope="col">Plan</th>
                    <th scope="col">Mode</th>
                    <th scope="col" class="num">
                      Travelers
                    </th>
                    <th scope="col" class="num">
                      Premium
                    </th>
                    <th scope="col" class="num">
                      Commission
                    </th>
                    <th scope="col">Issued</th>
                    <th scope="col">Confirmation e-mail</th>
                  </>
                }
              >
                {data.recentPolicies.map((p) => (
                  <tr key={p.policyNumber}>
                    <td data-label="Policy" class="mono">
                      {p.policyNumber}
                    </td>
                    <td data-label="Plan">{p.planName}</td>
                    <td data-label="Mode">
                      <ModeBadge mode={p.mode} />
                    </td>
                    <td data-label="Travelers" class="num">
                      {p.travelers}
                    </td>
                    <td data-label="Premium" class="num">
                      {formatMoney(p.premiumCents, p.currency)}
                    </td>
                    <td data-label="Commission" class="num">
                      {p.commissionCents === null ? '—' : formatMoney(p.commissionCents, p.currency)}
                    </td>
                    <td data-label="Issued">{formatDateTime(p.issuedAt)}</td>
                    <td data-label="Confirmation e-mail">
                      {CONFIRMATION_EMAIL[p.confirmationEmail ?? 'none'] ?? p.confirmationEmail}
                    </td>
                  </tr>
                ))}
              </StackTable>
            )
          }
        </Loaded>
      </Section>
    </>
  );
}

/** The confirmation e-mail's state in words (an unknown future value is shown as sent by the API). */
const CONFIRMATION_EMAIL: Record<string, string> = {
  sent: 'Sent',
  pending: 'Sending',
  failed: 'Failed (ask the provider to resend)',
  no_address: 'Not sent: no address given',
  none: '—',
};

export function ModeBadge({ mode }: { mode: Mode | null }) {
  if (mode === null) return <span class="muted">—</span>;
  return <Badge tone={mode === 'live' ? 'success' : 'info'}>{mode}</Badge>;
}

function VerifyBanner({ email }: { email: string }) {
  const { api } = useSession();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  // Development (no mail server): the portal lists its mails on /dev/outbox; production answers 404 and no link shows.
  const outbox = useResource<{ mails: unknown[] }>('/dev/outbox');
  return (
    <Banner tone="info" title="Please verify your e-mail address">
      <p>
        We sent a link to <strong>{email}</strong>. Verifying keeps your account recoverable.{' '}
        <Button
          variant="secondary"
          small
          busy={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await api.post('/auth/verify-email/resend');
              toast.success('A new verification link is on its way.');
            } catch (e) {
              toast.error(errorMessage(e));
            } finally {
              setBusy(false);
            }
          }}
        >
          Send the link again
        </Button>
      </p>
      {outbox.data ? (
        <p class="small">
          Running without a mail server:{' '}
          <a href="/dev/outbox" data-reload>
            open the mail outbox
          </a>{' '}
          to find the link.
        </p>
      ) : null}
    </Banner>
  );
}

function Figures({ data }: { data: DashboardResponse }) {
  const [metric, setMetric] = useState<Metric>('quotes');
  const money = (cents: number) => formatMoney(cents, data.currency);
  const hasLive = data.totals.live.quotes > 0 || data.totals.live.purchases > 0;
  return (
    <>
      <div class="stats">
        <Stat
          label="Quotes"
          test={String(data.totals.test.quotes)}
          live={String(data.totals.live.quotes)}
          showLive={hasLive}
        />
        <Stat
          label="Purchases"
          test={String(data.totals.test.purchases)}
          live={String(data.totals.live.purchases)}
          showLive={hasLive}
        />
        <Stat
          label="Conversion"
          test={formatPercent(data.conversion.test)}
          live={formatPercent(data.conversion.live)}
          showLive={hasLive}
          hint="purchases ÷ quotes"
        />
        <Stat
          label="Premium"
          test={money(data.totals.test.premiumCents)}
          live={money(data.totals.live.premiumCents)}
          showLive={hasLive}
        />
        <Stat
          label="Commission"
          test={money(data.totals.test.commissionCents)}
          live={money(data.totals.live.commissionCents)}
          showLive={hasLive}
        />
      </div>
      {data.otherCurrencies.length ? (
        <p class="muted small">
          Money figures are in {data.currency}; sales in {data.otherCurrencies.join(', ')} are counted in purchases
          only.
        </p>
      ) : null}
      <div class="segmented chart-metrics" role="group" aria-label="Chart shows">
        {METRICS.map((m) => (
          <button
            key={m.id}
            type="button"
            class="segmented__btn"
            aria-pressed={metric === m.id ? 'true' : 'false'}
            onClick={() => setMetric(m.id)}
          >
            {m.label}
          </button>
        ))}
      </div>
      <Chart data={data} metric={metric} />
    </>
  );
}

function Stat({
  label,
  test,
  live,
  showLive,
  hint,
}: {
  label: string;
  test: string;
  live: string;
  showLive: boolean;
  hint?: string;
}) {
  return (
    <div class="stat svc-card">
      <div class="stat__label">
        {label}
        {hint ? <span class="muted small"> ({hint})</span> : null}
      </div>
      <div class="stat__value">{showLive ? live : test}</div>
      <div class="stat__sub muted small">{showLive ? `live · test ${test}` : 'test mode'}</div>
    </div>
  );
}

const W = 640;
const H = 180;

function Chart({ data, metric }: { data: DashboardResponse; metric: Metric }) {
  const info = METRICS.find((m) => m.id === metric) ?? QUOTES;
  const series = seriesOf(data.days, metric);
  const max = niceMax(Math.max(0, ...series.test, ...series.live));
  const fmt = (v: number) => (info.money ? formatMoney(v, data.currency) : String(v));
  const summary = `${info.label} per day from ${formatDate(data.from)} to ${formatDate(data.to)}: test ${fmt(sum(series.test))} in total, live ${fmt(sum(series.live))} in total.`;
  const first = series.labels[0];
  const last = series.labels[series.labels.length - 1];
  return (
    <figure class="chart">
      <svg viewBox={`-56 -10 ${W + 70} ${H + 34}`} role="img" aria-label={summary} preserveAspectRatio="xMidYMid meet">
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line class="chart__grid" x1={0} x2={W} y1={H - f * H} y2={H - f * H} />
            <text class="chart__axis" x={-8} y={H - f * H + 4} text-anchor="end">
              {info.money ? formatMoney(max * f, data.currency, undefined, { trimZeroCents: true }) : String(max * f)}
            </text>
          </g>
        ))}
        <polyline class="chart__line chart__line--test" points={polylinePoints(series.test, max, W, H)} />
        <polyline class="chart__line chart__line--live" points={polylinePoints(series.live, max, W, H)} />
        {first ? (
          <text class="chart__axis" x={0} y={H + 20}>
            {formatDate(first)}
          </text>
        ) : null}
        {last ? (
          <text class="chart__axis" x={W} y={H + 20} text-anchor="end">
            {formatDate(last)}
          </text>
        ) : null}
      </svg>
      <figcaption>
        <span class="legend legend--test">Test</span> <span class="legend legend--live">Live</span>
        <span class="muted small"> {summary}</span>
      </figcaption>
      <details class="chart-table">
        <summary>Show the figures as a table</summary>
        <TableWrap label="Figures per day">
          <table class="table">
            <caption class="svc-visually-hidden">{info.label} per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" class="num">
                  Test
                </th>
                <th scope="col" class="num">
                  Live
                </th>
              </tr>
            </thead>
            <tbody>
              {series.labels.map((day, i) => (
                <tr key={day}>
                  <th scope="row">{formatDate(day)}</th>
                  <td class="num">{fmt(series.test[i] ?? 0)}</td>
                  <td class="num">{fmt(series.live[i] ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
    </figure>
  );
}
