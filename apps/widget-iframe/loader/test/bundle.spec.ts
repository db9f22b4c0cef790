import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { LOADER_VERSION } from '../src/version';

/** The built loader (the project's test target depends on its bundle target). */
const BUILD = path.resolve(__dirname, '../../../../dist/browser/widget-loader/widget.js');
/**
 * 2.8 KB (docs/integration-guide.md §9 sizes): loader 1.1.1 is 2,848 bytes with its fallback link, and 2,867 with a
 * 40-character WIDGET_LOADER_ORIGIN baked in (rollup.config.mjs).
 */
const BUDGET_GZIPPED = 2867;

function fakePage(src = 'https://widget.example:8443/widget/1.0.0.js') {
  const window: Record<string, any> = {};
  const document = { currentScript: { src }, baseURI: 'https://tours.example/trip', querySelector: () => null };
  return { window, document, console, URL };
}

describe('the built loader (dist/browser/widget-loader/widget.js)', () => {
  const source = readFileSync(BUILD, 'utf8');

  it(`is at most ${BUDGET_GZIPPED} bytes gzipped`, () => {
    const gzipped = gzipSync(source, { level: 9 }).length;
    expect(gzipped).toBeLessThanOrEqual(BUDGET_GZIPPED);
  });

  it('is one classic script with no import, require or eval', () => {
    expect(source).not.toMatch(/\bimport\s*[("'{]|\brequire\(|\beval\(|new Function/);
    expect(source.startsWith('!function(){') || source.startsWith('(function(){') || source.startsWith('(()=>{')).toBe(
      true,
    );
  });

  it('does nothing where there is no window (server-side rendering, workers)', () => {
    const context: Record<string, unknown> = { console };
    expect(() => vm.runInNewContext(source, context)).not.toThrow();
    expect(Object.keys(context)).toEqual(['console']);
  });

  it('defines SvcWidget with the embed origin of its own URL and its build version', () => {
    const page = fakePage();
    vm.runInNewContext(source, page);
    expect(page.window['SvcWidget'].embedOrigin).toBe('https://widget.example:8443');
    expect(page.window['SvcWidget'].version).toBe(LOADER_VERSION);
    expect(Object.keys(page.window['SvcWidget']).sort()).toEqual([
      'embedOrigin',
      'mount',
      'off',
      'on',
      'once',
      'version',
    ]);
  });

  it('without document.currentScript never takes its origin from a script on the page (this build has none baked in)', () => {
    const page = (srcs: string[]) => {
      const errors: unknown[] = [];
      const document = {
        currentScript: null,
        baseURI: 'https://tours.example/trip',
        scripts: srcs.map((src) => ({ src })),
      };
      const context = {
        window: {} as Record<string, any>,
        document,
        URL,
        console: { ...console, error: (m: unknown) => errors.push(m) },
      };
      vm.runInNewContext(source, context);
      return { svc: context.window['SvcWidget'], errors };
    };
    for (const scripts of [
      // A look-alike of exactly our path on another origin, before ours: it would be sent the traveler's details.
      ['https://evil.example/widget.js', 'https://widget.example/widget.js'],
      ['https://evil.example/widget/1.0.2.js'],
      ['https://chat.example/widgets/chat.js', 'https://widget.example/widget.js'],
      [],
    ]) {
      const refused = page(scripts);
      expect(refused.svc).toBeUndefined();
      expect(refused.errors).toEqual(['SvcWidget: not started: no …/widget.js script']);
    }
  });

  it('loaded twice, keeps the first SvcWidget and its handlers', () => {
    const page = fakePage();
    const context = vm.createContext(page);
    vm.runInContext(source, context);
    const first = page.window['SvcWidget'];
    const handler = () => undefined;
    first.on('quote.ready', handler);
    vm.runInContext(source, context);
    expect(page.window['SvcWidget']).toBe(first);
    // The global cannot be replaced by accident either (a second, different embed script).
    expect(() => vm.runInContext('"use strict"; window.SvcWidget = {}', context)).toThrow(/read only/);
    expect(page.window['SvcWidget']).toBe(first);
  });

  it('throws on an unknown event name and a missing handler', () => {
    const page = fakePage();
    vm.runInNewContext(source, page);
    const api = page.window['SvcWidget'];
    expect(() => api.on('quote.readdy', () => undefined)).toThrow('unknown event "quote.readdy"');
    expect(() => api.once('payment.success', () => undefined)).toThrow('unknown event');
    expect(() => api.off('ready', () => undefined)).toThrow('unknown event');
    expect(() => api.on('quote.ready')).toThrow('must be a function');
    expect(typeof api.on('widget.error', () => undefined)).toBe('function');
  });
});
