import type { BrowserContext, Frame, Request } from 'playwright-core';
import type { RecordedRequest } from './world-config';

/**
 * What a Chromium suite's wait says when it times out: the context's requests in order with their answers, the ones
 * still open and the ones that failed, the frames' console errors and uncaught errors, the suite's own notes (a route
 * handler that failed), what the fake embed API received, and what the frame shows. A wait on the network that times
 * out on a loaded machine is then explained by its own error message.
 */
export interface Watch {
  /** A line of the suite's own for the explanation (a route handler that failed, say). */
  note(line: string): void;
  /** `frame.waitForSelector` whose timeout error carries the explanation. */
  waitFor(frame: Frame, selector: string, options?: { timeout?: number }): Promise<void>;
  /** The explanation at this moment. */
  explain(frame?: Frame): Promise<string>;
}

const since = (start: number) => `${((Date.now() - start) / 1000).toFixed(1)}s`;
const nameOf = (r: Request) => `${r.method()} ${r.url().replace(/^https?:\/\/[^/]+/, '')}`;

/** Watches `context` from now on; `requests` gives what the fake embed API received. */
export function watchContext(context: BrowserContext, requests?: () => RecordedRequest[]): Watch {
  const start = Date.now();
  const open = new Map<Request, string>();
  const lines: string[] = [];
  const log = (line: string) => lines.push(`${since(start)} ${line}`);
  context.on('request', (r) => {
    open.set(r, since(start));
    log(`→ ${nameOf(r)}`);
  });
  context.on('response', (r) => log(`← ${r.status()} ${nameOf(r.request())}`));
  context.on('requestfinished', (r) => open.delete(r));
  context.on('requestfailed', (r) => {
    open.delete(r);
    log(`request failed: ${nameOf(r)}: ${r.failure()?.errorText}`);
  });
  context.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') log(`console ${m.type()}: ${m.text()}`);
  });
  context.on('weberror', (e) => log(`uncaught: ${e.error().message}`));

  async function explain(frame?: Frame): Promise<string> {
    const pending = [...open].map(([r, at]) => `${nameOf(r)} (since ${at})`);
    const received = (requests?.() ?? []).map((r) => `${r.method} ${r.path}`);
    // The frame may be what hangs: its DOM is asked for with a deadline of its own.
    let timer: NodeJS.Timeout | undefined;
    const shown = frame
      ? await Promise.race([
          // Each part of the widget: its class and the start of its text (a notice, a form, a checkout still loading).
          frame.evaluate(() =>
            Array.from(document.querySelector('main')?.children ?? [document.body])
              .map((el) => `\n  ${el.className || el.tagName.toLowerCase()}: ${el.textContent?.trim().slice(0, 120)}`)
              .join(''),
          ),
          new Promise<string>((resolve) => {
            timer = setTimeout(() => resolve('(the frame did not answer within 5 s)'), 5000);
          }),
        ])
          .catch((e: Error) => `(the frame could not be read: ${e.message})`)
          .finally(() => clearTimeout(timer))
      : '';
    return [
      `at ${since(start)} after the context opened`,
      `open requests: ${pending.join(', ') || 'none'}`,
      `events:\n  ${lines.join('\n  ') || 'none'}`,
      `the fake embed API received: ${received.join(', ') || 'nothing'}`,
      ...(frame ? [`the frame shows: ${shown}`] : []),
    ].join('\n');
  }

  return {
    note: log,
    explain,
    async waitFor(frame, selector, options) {
      try {
        await frame.waitForSelector(selector, options);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${await explain(frame)}`);
      }
    },
  };
}
