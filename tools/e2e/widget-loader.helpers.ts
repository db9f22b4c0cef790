import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { describeWithChromium, launchChromium } from '@expedition/platform/chromium';
import { buildLoader, POST_MESSAGE_PROBE, startStubWidget, workspaceRoot, type StubWidget } from './widget-stub-frame';

/**
 * What the loader's browser suites share (widget-loader-mount, -events and -origins .browser.spec.ts): the loader
 * (`window.SvcWidget`, apps/widget-iframe/loader) in real Chromium against a stub frame of our own, the host page and
 * the iframe on different origins, the frame's `frame-ancestors` under the test's control. The real frame UI and
 * widget server are exercised by widget-journey.browser.spec.ts.
 */
export const describeWithBrowser = describeWithChromium();

export const KEY = `pk_op_test_${'ab'.repeat(24)}`;
/** The loader version last released (a build reports it: releases.spec.ts keeps the two in step). */
export const RELEASED = (
  JSON.parse(readFileSync(path.join(workspaceRoot, 'apps/widget-iframe/releases/manifest.json'), 'utf8')) as {
    current: string;
  }
).current;

type Recorded = { name: string; event: Record<string, unknown>; via?: string };
declare global {
  interface Window {
    SvcWidget: any;
    __events: Recorded[];
    __handles: Record<string, any>;
    __svcPosts: { targetOrigin: string; type?: string; self?: boolean }[];
    __messageListeners: Set<unknown>;
    stub: any;
  }
}

export interface LoaderSession {
  /** The stub widget server (its origins); set once beforeAll has run. */
  readonly stub: StubWidget;
  /** Console errors and page errors of every page opened, in order. */
  consoleErrors: string[];
  /** A fresh browser context on `url` (the stub host page by default), recording the page's posts and events. */
  hostPage(url?: string): Promise<Page>;
  /** Mounts into `target` and records every event (global handlers) as { name, event }. */
  mount(page: Page, target: string, config: Record<string, unknown>): Promise<string>;
  events(page: Page, name?: string): Promise<Recorded[]>;
  waitForEvent(page: Page, name: string, count?: number): Promise<unknown>;
  frameOf(page: Page, instanceId: string): Promise<Frame>;
}

/**
 * Builds the loader, starts a stub widget (on ports the OS picks: jest runs suites side by side) and launches Chromium
 * before the suite's tests, and stops them after.
 */
export function useLoaderSession(): LoaderSession {
  let stub: StubWidget | undefined;
  let browser: Browser;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    buildLoader();
    stub = await startStubWidget();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stub?.stop();
  });

  async function hostPage(url = stub!.hostUrl): Promise<Page> {
    const context = await browser.newContext();
    await context.addInitScript(POST_MESSAGE_PROBE);
    const page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    await page.goto(url);
    await page.evaluate(() => {
      window.__events = [];
      window.__handles = {};
    });
    return page;
  }

  async function mount(page: Page, target: string, config: Record<string, unknown>): Promise<string> {
    return page.evaluate(
      ({ target, config }) => {
        const names = [
          'quote.ready',
          'quote.selected',
          'quote.error',
          'payment.succeeded',
          'payment.failed',
          'widget.ready',
          'widget.error',
        ];
        if (!(window as any).__recording) {
          (window as any).__recording = true;
          for (const name of names)
            window.SvcWidget.on(name, (event: Record<string, unknown>) => window.__events.push({ name, event }));
        }
        const handle = window.SvcWidget.mount(target, config);
        window.__handles[handle.instanceId] = handle;
        return handle.instanceId as string;
      },
      { target, config },
    );
  }

  const events = (page: Page, name?: string) =>
    page.evaluate((name) => window.__events.filter((e) => !name || e.name === name), name);
  const waitForEvent = (page: Page, name: string, count = 1) =>
    page.waitForFunction(({ name, count }) => window.__events.filter((e) => e.name === name).length >= count, {
      name,
      count,
    });
  async function frameOf(page: Page, instanceId: string): Promise<Frame> {
    const element = await page.waitForSelector(`iframe[data-svc-instance="${instanceId}"]`);
    const frame = await element.contentFrame();
    await frame!.waitForFunction(() => (window as any).stub !== undefined);
    return frame!;
  }

  return {
    get stub() {
      if (!stub) throw new Error('the stub widget starts in beforeAll');
      return stub;
    },
    consoleErrors,
    hostPage,
    mount,
    events,
    waitForEvent,
    frameOf,
  };
}
