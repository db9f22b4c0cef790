import { describeWithBrowser, KEY, useLoaderSession } from './widget-loader.helpers';

/** The loader's origins: messages from other windows, postMessage targets, a frame refused by frame-ancestors or by the page's CSP, and a frame that never answers. Shared set-up: widget-loader.helpers.ts. */
describeWithBrowser('the widget loader in Chromium (stub frame)', () => {
  const session = useLoaderSession();
  const { hostPage, mount, events, waitForEvent, frameOf } = session;

  it('ignores svc: messages from a foreign window and from another window of the embed origin', async () => {
    const page = await hostPage();
    const id = await mount(page, '#a', { publishableKey: KEY });
    await waitForEvent(page, 'widget.ready');
    await page.evaluate(() => {
      (window as any).__raw = [];
      window.addEventListener('message', (e) => (window as any).__raw.push({ origin: e.origin, type: e.data?.type }));
    });
    await page.evaluate(
      ({ id, widgetUrl, foreignUrl, hostUrl }) => {
        const frames = [
          `${foreignUrl}/foreign.html?instance=${id}&parent=${encodeURIComponent(hostUrl)}`,
          `${widgetUrl}/impostor.html?instance=${id}&parent=${encodeURIComponent(hostUrl)}`,
        ].map((src) => {
          const f = document.createElement('iframe');
          f.src = src;
          document.body.appendChild(f);
          return new Promise((r) => f.addEventListener('load', r));
        });
        return Promise.all(frames);
      },
      { id, widgetUrl: session.stub.widgetUrl, foreignUrl: session.stub.foreignUrl, hostUrl: session.stub.hostUrl },
    );
    // Both impostors' messages reached the page...
    await page.waitForFunction(
      () => (window as any).__raw.filter((m: any) => m.type === 'svc:quote.selected').length >= 2,
    );
    const raw = await page.evaluate(() =>
      (window as any).__raw
        .filter((m: any) => m.type === 'svc:quote.selected')
        .map((m: any) => m.origin)
        .sort(),
    );
    expect(raw).toEqual([session.stub.widgetUrl, session.stub.foreignUrl].sort());
    // ...and the loader emitted nothing for them; the real frame's event still gets through.
    await (
      await frameOf(page, id)
    ).evaluate(() => window.stub.event('quote.selected', { planId: 'real', premiumCents: 5 }));
    await waitForEvent(page, 'quote.selected');
    expect((await events(page, 'quote.selected')).map((e) => e.event['planId'])).toEqual(['real']);
    await page.context().close();
  });

  it('neither side ever posts with target "*": the loader posts to the embed origin, the frame to the page origin', async () => {
    const page = await hostPage();
    const id = await mount(page, '#a', { publishableKey: KEY });
    await waitForEvent(page, 'widget.ready');
    await page.evaluate((id) => window.__handles[id].update({ tier: 2 }), id);
    const frame = await frameOf(page, id);
    await frame.waitForFunction(() => window.stub.received.length >= 2);
    await frame.evaluate(() => window.stub.event('quote.ready', {}));
    await waitForEvent(page, 'quote.ready');
    const pagePosts = await page.evaluate(() => window.__svcPosts);
    const framePosts = await frame.evaluate(() => window.__svcPosts);
    expect(pagePosts).toEqual([
      { targetOrigin: session.stub.widgetUrl, type: 'svc:frame.init' },
      { targetOrigin: session.stub.widgetUrl, type: 'svc:frame.update' },
    ]);
    expect(framePosts).toEqual([
      { targetOrigin: session.stub.hostUrl, type: 'svc:frame.hello' },
      { targetOrigin: session.stub.hostUrl, type: 'svc:quote.ready' },
    ]);
    await page.context().close();
  });

  it('a host page whose origin the frame refuses (frame-ancestors) gets widget.error frame_refused', async () => {
    const page = await hostPage(session.stub.otherHostUrl);
    const id = await mount(page, '#a', { publishableKey: KEY, loadTimeoutMs: 10_000 });
    await waitForEvent(page, 'widget.error');
    expect(await events(page)).toEqual([
      {
        name: 'widget.error',
        event: { code: 'frame_refused', message: expect.stringContaining(session.stub.otherHostUrl), instanceId: id },
      },
    ]);
    await page.context().close();
  });

  it('a host page whose own CSP frame-src leaves the widget out gets widget.error frame_refused (Chromium fires load)', async () => {
    const page = await hostPage(`${session.stub.hostUrl}/no-frame-src`);
    const id = await mount(page, '#a', { publishableKey: KEY, loadTimeoutMs: 10_000 });
    await waitForEvent(page, 'widget.error');
    expect(await events(page)).toEqual([
      { name: 'widget.error', event: { code: 'frame_refused', message: expect.any(String), instanceId: id } },
    ]);
    await page.context().close();
  });

  it('a frame that loads but never says hello gives frame_refused; one that never loads gives frame_timeout', async () => {
    const page = await hostPage();
    const silent = await mount(page, '#a', { publishableKey: 'pk_stub_silent', loadTimeoutMs: 10_000 });
    const hanging = await mount(page, '#b', { publishableKey: 'pk_stub_hang', loadTimeoutMs: 1500 });
    await waitForEvent(page, 'widget.error', 2);
    const errors = (await events(page, 'widget.error')).map((e) => [e.event['instanceId'], e.event['code']]);
    expect(errors.sort()).toEqual(
      [
        [hanging, 'frame_timeout'],
        [silent, 'frame_refused'],
      ].sort(),
    );
    await page.context().close();
  });
});
