// Chromium for the browser test suites (import from '@expedition/platform/chromium' in tests, never from production
// code): where it is, the ONE skip-or-fail rule, the launch flags and axe-core. Apart from @expedition/platform/testing
// so that suites without a browser do not load playwright-core.
import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { noteSkippedSuite, servicesRequired } from './testing';

/** Chromium's executable: CHROMIUM_PATH, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Headless in a container (no sandbox, no GPU), and nothing that talks to the network of its own accord. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Something else a browser suite needs (a bundle built, say), and what to say when it is missing. */
export interface SuiteNeed {
  present: boolean;
  missing: string;
}

/**
 * `describe` when Chromium is at CHROMIUM (and every other need is present), else a noted `describe.skip`
 * (noteSkippedSuite); throws when REQUIRE_SERVICES=1 (CI) and something is missing.
 */
export function describeWithChromium(...needs: SuiteNeed[]): jest.Describe {
  const missing = [
    {
      present: existsSync(CHROMIUM),
      missing: `Chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`,
    },
    ...needs,
  ]
    .filter((need) => !need.present)
    .map((need) => need.missing);
  if (missing.length === 0) return describe;
  if (servicesRequired()) throw new Error(`REQUIRE_SERVICES=1 but ${missing.join('; ')}`);
  noteSkippedSuite(missing.join('; '));
  return describe.skip;
}

/** Launches the browser at CHROMIUM with CHROMIUM_ARGS (and `extraArgs` after them). */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

// ---- axe-core ----

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

export interface AxeResult {
  /** How many rules passed (0: axe checked nothing, which would hide every violation). */
  passes: number;
  violations: AxeViolation[];
}

/** The WCAG 2.1 A and AA rules (the default of runAxe). */
export const WCAG21AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

let axeSource: string | undefined;

/**
 * axe-core on a page (its main frame) or a frame, injected through the DevTools protocol, so the page's CSP may stay
 * on. `rules`: the WCAG 2.1 A/AA rules (default) or every rule axe has (`'all'`). With `frames`, axe also goes into
 * every child frame first: it audits a cross-origin iframe (the widget) only when it runs there too.
 */
export async function runAxe(
  target: Page | Frame,
  options: { rules?: 'wcag21aa' | 'all'; frames?: boolean } = {},
): Promise<AxeResult> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const frame = 'mainFrame' in target ? target.mainFrame() : target;
  if (options.frames) {
    const descendants = (f: Frame): Frame[] => f.childFrames().flatMap((child) => [child, ...descendants(child)]);
    for (const child of descendants(frame)) await child.evaluate(axeSource).catch(() => undefined);
  }
  await frame.evaluate(axeSource);
  const tags = options.rules === 'all' ? null : [...WCAG21AA];
  return frame.evaluate(async (runOnly) => {
    const g = globalThis as unknown as {
      document: unknown;
      axe: { run(context: unknown, options: unknown): Promise<{ passes: unknown[]; violations: AxeViolation[] }> };
    };
    const result = await g.axe.run(g.document, runOnly ? { runOnly: { type: 'tag', values: runOnly } } : {});
    return {
      passes: result.passes.length,
      violations: result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target })),
      })),
    };
  }, tags);
}

/** The serious and critical violations only. */
export function seriousOrCritical<T extends { impact: string | null }>(violations: T[]): T[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
