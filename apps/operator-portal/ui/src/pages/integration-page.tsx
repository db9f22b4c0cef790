import { Badge } from '@expedition/ui';
import type { IntegrationResponse } from '../api/types';
import { Banner, CodeBlock, Loaded, PageHeader, Section } from '../components';
import { useResource } from '../hooks';

const TIERS = [
  {
    id: 'tier1',
    tier: 1,
    title: 'Tier 1: a link to the hosted quote page',
    text: 'The simplest start: a link or button. Travelers quote and buy on our hosted page.',
  },
  {
    id: 'tier2',
    tier: 2,
    title: 'Tier 2: quotes on your page, checkout on ours',
    text: 'The widget quotes inside your page; Buy opens our hosted checkout in a new tab.',
  },
  {
    id: 'tier3',
    tier: 3,
    title: 'Tier 3: quotes and checkout on your page',
    text: 'The whole purchase happens inside the widget on your page.',
  },
] as const;

export function IntegrationPage() {
  const integration = useResource<IntegrationResponse>('/operator/integration');
  return (
    <>
      <PageHeader title="Integration" lead="Copy these snippets into your pages. Your key is already filled in." />
      <Loaded resource={integration} label="snippets">
        {(data) => (
          <>
            {!data.publishableKey ? (
              <Banner tone="warning" title="No usable key">
                Create a publishable key under <a href="/keys">API keys</a> first; the snippets then carry it.
              </Banner>
            ) : (
              <p class="muted">
                Using your {data.mode} key <code class="mono break">{data.publishableKey}</code>. Your account allows up
                to tier {data.allowedTier}. Pages must be served from one of your <a href="/origins">allowed origins</a>
                .
              </p>
            )}
            {TIERS.map((t) => (
              <Section
                key={t.id}
                id={t.id}
                title={t.title}
                actions={t.tier > data.allowedTier ? <Badge tone="warning">needs approval</Badge> : undefined}
              >
                <p class="muted">{t.text}</p>
                {t.tier > data.allowedTier ? (
                  <p class="small warning-text">
                    Your account allows tier {data.allowedTier} today; the widget falls back to it until the provider
                    raises your tier.
                  </p>
                ) : null}
                <CodeBlock code={data.snippets[t.id]} label={`Tier ${t.tier} snippet`} />
              </Section>
            ))}
            <Section title="Content-Security-Policy">
              <p class="muted">If your pages send a Content-Security-Policy, add these sources.</p>
              <CodeBlock code={data.snippets.csp} label="CSP lines" />
            </Section>
            <Section title="Verify webhooks">
              <p class="muted">
                Every <code>policy.issued</code> webhook is signed in <code>X-SVC-Signature</code>. Verify it over the
                raw body with your signing secret (see <a href="/webhooks">Webhooks</a>) and dedupe on{' '}
                <code>eventId</code>.
              </p>
              <CodeBlock code={data.snippets.webhookVerification} label="Webhook verification snippet" />
            </Section>
            {data.publishableKey && data.mode === 'test' ? (
              <Section title="Try it">
                <p>
                  <a
                    href={`${data.widgetUrl.replace(/\/$/, '')}/quote?pk=${encodeURIComponent(data.publishableKey)}`}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    Open the hosted quote page with your test key
                  </a>{' '}
                  <span class="muted small">(opens in a new tab; test mode, no real payment)</span>
                </p>
              </Section>
            ) : null}
          </>
        )}
      </Loaded>
    </>
  );
}
