import { describeWithBrowser, KEY, RELEASED, useLoaderSession } from './widget-loader.helpers';

/** The loader's mount: the iframe and its URL, where the loader takes its origin from, mounting again, destroy(), and a bad config. Shared set-up: widget-loader.helpers.ts. */
describeWithBrowser('the widget loader in Chromium (stub frame)', () => {
  const session = useLoaderSession();
  const { consoleErrors, hostPage, mount, events, waitForEvent, frameOf } = session;

  it('mounts one iframe per container with the documented URL and attributes, answers hello with init, emits widget.ready', async () => {
    const page = await hostPage();
    expect(await page.evaluate(() => [window.SvcWidget.embedOrigin, window.SvcWidget.version])).toEqual([
      session.stub.widgetUrl,
      RELEASED,
    ]);
    const historyBefore = await page.evaluate(() => history.length);
    const id = await mount(page, '#a', {
      pk: KEY,
      destination: 'Antarctica',
      tripCost: 29800,
      travelers: 2,
      tier: 3,
      locale: 'en-GB',
      appearance: { accentColor: '#0b5cad' },
      unknownThing: 1,
    });
    expect(id).toMatch(/^svc-[0-9a-f]{16}$/);
    await waitForEvent(page, 'widget.ready');
    expect(await events(page, 'widget.ready')).toEqual([
      { name: 'widget.ready', event: { version: 'stub', instanceId: id } },
    ]);

    const iframe = await page.evaluate(() => {
      const f = document.querySelector('#a iframe') as HTMLIFrameElement;
      return {
        src: f.src,
        title: f.title,
        width: f.style.width,
        border: getComputedStyle(f).borderTopWidth,
        count: document.querySelectorAll('iframe').length,
      };
    });
    const src = new URL(iframe.src);
    expect(src.origin + src.pathname).toBe(`${session.stub.widgetUrl}/frame`);
    expect(Object.fromEntries(src.searchParams)).toEqual({ pk: KEY, instance: id, parent: session.stub.hostUrl });
    expect(iframe).toMatchObject({ title: 'Travel insurance quote', width: '100%', border: '0px', count: 1 });
    // The src was set before insertion: the host's history has no entry for the frame.
    expect(await page.evaluate(() => history.length)).toBe(historyBefore);

    const frame = await frameOf(page, id);
    await frame.waitForFunction(() => window.stub.received.length > 0);
    expect(await frame.evaluate(() => window.stub.received)).toEqual([
      {
        type: 'svc:frame.init',
        instanceId: id,
        config: {
          tier: 3,
          locale: 'en-GB',
          appearance: { accentColor: '#0b5cad' },
          prefill: { destination: 'Antarctica', tripCost: 29800, travelers: 2 },
        },
      },
    ]);
    await page.context().close();
  });

  it('without document.currentScript takes no origin from the page (none baked into this build): refuses to start', async () => {
    // A module script has no currentScript; a third party's script comes first on the page. Any script could carry
    // our path, so the loader never reads one off the page (docs/security.md, "Loader origin").
    const errorsBefore = consoleErrors.length;
    const page = await hostPage(`${session.stub.hostUrl}/module-loader`);
    await page.waitForFunction(() => (window as any).chatWidgetLoaded === true);
    while (consoleErrors.length === errorsBefore) await page.waitForTimeout(20);
    expect(await page.evaluate(() => typeof window.SvcWidget)).toBe('undefined');
    expect(await page.locator('iframe').count()).toBe(0);
    expect(consoleErrors.slice(errorsBefore)).toEqual(['SvcWidget: not started: no …/widget.js script']);
    await page.context().close();
  });

  it('refuses to start, with a console error and no SvcWidget, when no script of its own path tells the origin', async () => {
    const errorsBefore = consoleErrors.length;
    // Module scripts run before `load`, which hostPage awaits; the console event may arrive just after.
    const page = await hostPage(`${session.stub.hostUrl}/module-loader-renamed`);
    expect(await page.evaluate(() => typeof window.SvcWidget)).toBe('undefined');
    expect(await page.locator('iframe').count()).toBe(0);
    while (consoleErrors.length === errorsBefore) await page.waitForTimeout(20);
    expect(consoleErrors.slice(errorsBefore)).toEqual(['SvcWidget: not started: no …/widget.js script']);
    await page.context().close();
  });

  it('a second mount into the same container returns the same handle, updated, and never adds an iframe', async () => {
    const page = await hostPage();
    const first = await mount(page, '#a', { publishableKey: KEY, destination: 'Antarctica' });
    await waitForEvent(page, 'widget.ready');
    // React StrictMode: mount, mount again with new props (selector and element alike).
    const second = await mount(page, '#a', { publishableKey: KEY, destination: 'Arctic', tier: 2 });
    const third = await page.evaluate(
      (key) =>
        window.SvcWidget.mount(document.getElementById('a'), { pk: key, destination: 'Arctic', tier: 2 }).instanceId,
      KEY,
    );
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(await page.evaluate(() => document.querySelectorAll('#a iframe').length)).toBe(1);
    const frame = await frameOf(page, first);
    await frame.waitForFunction(() => window.stub.received.length >= 3);
    expect(
      (await frame.evaluate(() => window.stub.received)).map((m: any) => [
        m.type,
        m.config.prefill.destination,
        m.config.tier,
      ]),
    ).toEqual([
      ['svc:frame.init', 'Antarctica', undefined],
      ['svc:frame.update', 'Arctic', 2],
      ['svc:frame.update', 'Arctic', 2],
    ]);
    // handle.update merges into the current config; the key cannot change there.
    const updateError = await page.evaluate((id) => {
      window.__handles[id].update({ locale: 'fr-FR' });
      try {
        window.__handles[id].update({ publishableKey: 'pk_op_test_other' });
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    }, first);
    expect(updateError).toContain('cannot change the key');
    await frame.waitForFunction(() => window.stub.received.length >= 4);
    expect((await frame.evaluate(() => window.stub.received))[3].config).toMatchObject({
      locale: 'fr-FR',
      tier: 2,
      prefill: { destination: 'Arctic' },
    });
    // Another key in the same container replaces the widget: still one iframe.
    const replaced = await mount(page, '#a', { publishableKey: `${KEY}cd` });
    expect(replaced).not.toBe(first);
    expect(await page.evaluate(() => document.querySelectorAll('#a iframe').length)).toBe(1);
    await page.context().close();
  });

  it('destroy() removes the iframe, the message listener and the handlers; later messages do nothing', async () => {
    const page = await hostPage();
    const listenersBefore = await page.evaluate(() => window.__messageListeners.size);
    const a = await mount(page, '#a', { publishableKey: KEY });
    const b = await mount(page, '#b', { publishableKey: KEY });
    await waitForEvent(page, 'widget.ready', 2);
    expect(await page.evaluate(() => window.__messageListeners.size)).toBe(listenersBefore + 1);
    await page.evaluate((a) => {
      (window as any).__afterDestroy = [];
      window.__handles[a].on('quote.ready', () => (window as any).__afterDestroy.push('a handler'));
      window.__handles[a].destroy();
      window.__handles[a].destroy(); // idempotent
    }, a);
    expect(
      await page.evaluate(() => [
        document.querySelectorAll('#a iframe').length,
        document.querySelectorAll('iframe').length,
      ]),
    ).toEqual([0, 1]);
    expect(
      await page.evaluate((a) => {
        try {
          window.__handles[a].on('quote.ready', () => 0);
          return 'no error';
        } catch (e) {
          return (e as Error).message;
        }
      }, a),
    ).toBe('SvcWidget: destroyed');
    // A message for the destroyed instance, from the embed origin (another frame there), is dropped.
    await page.evaluate(
      ({ a, widgetUrl, hostUrl }) => {
        const f = document.createElement('iframe');
        f.src = `${widgetUrl}/impostor.html?instance=${a}&parent=${encodeURIComponent(hostUrl)}`;
        document.body.appendChild(f);
        return new Promise((r) => f.addEventListener('load', r));
      },
      { a, widgetUrl: session.stub.widgetUrl, hostUrl: session.stub.hostUrl },
    );
    await (await frameOf(page, b)).evaluate(() => window.stub.event('quote.ready', { quoteId: 'q_b' }));
    await waitForEvent(page, 'quote.ready');
    expect((await events(page, 'quote.ready')).map((e) => e.event['instanceId'])).toEqual([b]);
    expect(await events(page, 'quote.selected')).toEqual([]);
    expect(await page.evaluate(() => (window as any).__afterDestroy)).toEqual([]);

    await page.evaluate((b) => window.__handles[b].destroy(), b);
    expect(
      await page.evaluate(() => [
        document.querySelectorAll('iframe[data-svc-instance]').length,
        window.__messageListeners.size,
      ]),
    ).toEqual([0, listenersBefore]);
    await page.context().close();
  });

  it('throws a TypeError naming the field for a bad config, and for a target that is not on the page', async () => {
    const page = await hostPage();
    const errors = await page.evaluate(() => {
      const out: string[] = [];
      for (const [target, config] of [
        ['#a', {}],
        ['#a', { publishableKey: 'pk_op_test_x', tripCost: '100' }],
        ['#a', { publishableKey: 'pk_op_test_x', appearance: { theme: 'night' } }],
        ['#nowhere', { publishableKey: 'pk_op_test_x' }],
      ] as const) {
        try {
          window.SvcWidget.mount(target, config);
          out.push('no error');
        } catch (e) {
          out.push(`${(e as Error).name}: ${(e as Error).message}`);
        }
      }
      return out;
    });
    expect(errors).toEqual([
      'TypeError: SvcWidget: config.publishableKey must be set (required)',
      'TypeError: SvcWidget: config.tripCost must be whole dollars 0-10000000',
      'TypeError: SvcWidget: config.appearance.theme must be light, dark or auto',
      'TypeError: SvcWidget: no element #nowhere',
    ]);
    expect(await page.evaluate(() => document.querySelectorAll('iframe').length)).toBe(0);
    await page.context().close();
  });
});
