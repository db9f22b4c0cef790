import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePorts, withoutEndpoints } from '@expedition/platform/testing';

const root = path.resolve(__dirname, '../..');

export interface Launched {
  urls: { quote: string; embed: string; dispatcher: string; demo: string; widget: string; portal: string };
  demo: {
    operatorId: string;
    name: string;
    publishableKey: string;
    webhookSecret: string;
    /** The demo operator's portal owner log-in. */
    portalEmail: string;
    portalPassword: string;
  };
  /** The provider admin the launcher created (DATA_DIR/provider-admin.json). */
  providerAdmin: { email: string; password: string };
  /** The launcher's DATA_DIR (the mail outbox is under it); removed by stop(). */
  dataDir: string;
  output: () => string;
  stop(): Promise<number | null>;
  /** kill -9: the process dies where it is, nothing shuts down; DATA_DIR stays, as it would (launch it again on it). */
  kill(): Promise<void>;
}

/**
 * Starts the real all-in-one launcher (what `npm start` runs) in a child process on ports the OS picks
 * ({@link freePorts}) and a fresh DATA_DIR (PGlite unless `env` sets DATABASE_URL), with short webhook retry delays,
 * and waits until every app answers. A port or address of the suite's own in `env` (METRICS_PORT…) comes from
 * freePorts too.
 */
export async function launch(options: { env?: NodeJS.ProcessEnv; dataDir?: string } = {}): Promise<Launched> {
  const free = await freePorts(6);
  const ports = {
    quote: free[0]!,
    embed: free[1]!,
    widget: free[2]!,
    portal: free[3]!,
    dispatcher: free[4]!,
    demo: free[5]!,
  };
  const url = (p: number) => `http://localhost:${p}`;
  // The launcher gets PGlite under DATA_DIR and its own processor intake unless the caller asks otherwise in `env`
  // (a suite that must query the database passes DATABASE_URL): nothing is inherited from the shell running jest.
  // Nor the shell's ports and addresses: a QUOTE_API_URL or PORT_BASE exported for `npm start` would point these
  // apps at that other run.
  const inherited = withoutEndpoints(process.env);
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'expedition-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    DATA_DIR: dataDir,
    QUOTE_API_PORT: String(ports.quote),
    EMBED_API_PORT: String(ports.embed),
    DISPATCHER_PORT: String(ports.dispatcher),
    DEMO_PORT: String(ports.demo),
    WIDGET_PORT: String(ports.widget),
    PORTAL_PORT: String(ports.portal),
    LOG_LEVEL: 'warn',
    WEBHOOK_POLL_INTERVAL_MS: '100',
    WEBHOOK_RETRY_DELAYS_MS: '200,200',
    NODE_OPTIONS: '',
    ...options.env,
  };

  let output = '';
  // One process, tsx as a loader (`--import tsx`), not tsx's CLI: the CLI runs the script in a second process and, when
  // that one does not acknowledge a relayed SIGTERM within 30 ms (a loaded machine), SIGKILLs it and exits 143, so
  // stop() would not see the launcher's own graceful shutdown.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'tools/launcher/main.ts'], {
    cwd: root,
    env: { ...env, TSX_TSCONFIG_PATH: 'tools/tsconfig.json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + 90_000;
  for (const p of Object.values(ports)) {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`launcher exited early:\n${output}`);
      if (Date.now() > deadline) throw new Error(`launcher not ready in 90 s:\n${output}`);
      const ok = await fetch(`${url(p)}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const demo = JSON.parse(readFileSync(path.join(dataDir, 'demo-operator.json'), 'utf8'));
  const providerAdmin = JSON.parse(readFileSync(path.join(dataDir, 'provider-admin.json'), 'utf8'));
  return {
    urls: {
      quote: url(ports.quote),
      embed: url(ports.embed),
      dispatcher: url(ports.dispatcher),
      demo: url(ports.demo),
      widget: url(ports.widget),
      portal: url(ports.portal),
    },
    demo,
    providerAdmin,
    dataDir,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Polls the demo operator's receiver until a verified policy.issued for the quote has arrived. */
export async function waitForPolicyIssued(demoUrl: string, quoteId: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { events } = (await (await fetch(`${demoUrl}/webhooks/received`)).json()) as {
      events: { eventId: string; deliveries: number; payload: Record<string, unknown> }[];
    };
    const found = events.find((e) => e.payload['quoteId'] === quoteId);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no policy.issued for ${quoteId} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** POSTs `body` as JSON to `url`; the parsed answer (any other status than 2xx throws, with the body). */
export async function postJson(url: string, body: unknown): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * A checkout link on the platform's quote-api: a new quote (Antarctica, 14 days from 10 January next year, two
 * travelers of 45 and 72 from California, $24,000) and the link of its first full plan; the plan and the link's answer.
 */
export async function antarcticaCheckoutLink(platform: Launched): Promise<{ plan: any; checkoutUrl: string }> {
  const quote = await postJson(`${platform.urls.quote}/api/v1/quotes`, {
    destination: 'Antarctica',
    startDate: `${new Date().getUTCFullYear() + 1}-01-10`,
    durationDays: 14,
    tripCost: 24000,
    travelers: 2,
    travelerAges: [45, 72],
    residence: 'US',
    state: 'CA',
  });
  const plan = quote.plans.find((p: { availabilityMode: string }) => p.availabilityMode === 'full');
  const link = await postJson(`${platform.urls.quote}/api/v1/checkout`, {
    quoteId: quote.quoteId,
    planId: plan.planId,
    sessionId: quote.sessionId,
  });
  return { plan, checkoutUrl: link.checkoutUrl as string };
}
