// The demo operator's page: mounts the insurance widget exactly as our integration guide says, shows every widget
// event as it arrives, and the policy.issued webhooks our back office received (verified server-side).
(() => {
  'use strict';
  const config = JSON.parse(document.getElementById('demo-config').textContent);
  const $ = (id) => document.getElementById(id);
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const money = (cents, currency) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: currency || 'USD' }).format(cents / 100);
  const clock = () => new Date().toLocaleTimeString('en-GB', { hour12: false });

  let quoteId = null;
  let paidQuoteId = null;

  function logEvent(name, event) {
    const list = $('events');
    list.querySelector('.empty')?.remove();
    const item = el(
      'li',
      name.endsWith('error') || name.endsWith('failed') ? 'bad' : name === 'payment.succeeded' ? 'good' : '',
    );
    const head = el('div', 'event-head');
    head.append(el('time', '', clock()), el('code', 'event-name', name));
    item.append(head, el('pre', '', JSON.stringify(event, null, 2)));
    item.dataset.event = name;
    list.prepend(item);
    while (list.children.length > 40) list.lastElementChild.remove();
  }

  function mountWidget() {
    const status = $('widget-status');
    if (!window.SvcWidget) {
      status.textContent = `The insurance widget could not be loaded from ${config.widgetUrl}/widget.js. Is the widget server running?`;
      status.className = 'note bad';
      return;
    }
    const names = [
      'widget.ready',
      'widget.error',
      'quote.ready',
      'quote.selected',
      'quote.error',
      'payment.succeeded',
      'payment.failed',
    ];
    for (const name of names) window.SvcWidget.on(name, (event) => logEvent(name, event));

    const widget = window.SvcWidget.mount('#svc-widget', {
      publishableKey: config.publishableKey,
      tier: config.tier,
      // The widget's language: the demo page's ?locale= (MountConfig.locale), else the visitor's browser.
      ...(config.locale ? { locale: config.locale } : {}),
      ...config.prefill,
    });
    widget.on('widget.ready', () => status.remove());
    widget.on('widget.error', (event) => {
      status.textContent = `The insurance widget is unavailable right now (${event.code}). You can still book your voyage.`;
      status.className = 'note bad';
    });
    // quote.selected carries no quoteId: keep the last one quote.ready gave.
    widget.on('quote.ready', (event) => {
      if (event.quoteId) quoteId = event.quoteId;
    });
    widget.on('payment.succeeded', (event) => {
      paidQuoteId = event.quoteId || quoteId;
      showConfirmation(event);
    });
  }

  /** The operator's own confirmation: fulfilment waits for the verified webhook, not the browser event. */
  function showConfirmation(event) {
    let box = $('confirmation');
    if (!box) {
      box = el('div', 'confirmation');
      box.id = 'confirmation';
      box.setAttribute('role', 'status');
      $('svc-widget').before(box);
    }
    box.replaceChildren(
      el('h3', '', 'Your trip is protected'),
      el(
        'p',
        '',
        `Insurance paid${event.premiumCents !== undefined ? `: ${money(event.premiumCents, event.currency)}` : ''}. Issuing your policy…`,
      ),
    );
  }

  function showPolicy(policy) {
    const box = $('confirmation');
    if (!box || box.dataset.policy === policy.policyNumber) return;
    box.dataset.policy = policy.policyNumber;
    const title = el('h3', '', 'Policy issued — ');
    const number = el('span', '', policy.policyNumber);
    number.setAttribute('data-policy-number', '');
    title.append(number);
    const dl = el('dl');
    for (const [term, value] of [
      ['Plan', policy.planName],
      ['Premium', money(policy.premiumCents, policy.currency)],
      ['Travelers', String(policy.travelers)],
      ['Quote', policy.quoteNumber],
    ])
      dl.append(el('dt', '', term), el('dd', '', value));
    box.replaceChildren(title, dl, el('p', 'note', 'The policy documents are emailed to the traveler.'));
  }

  async function refreshWebhooks() {
    try {
      const { events } = await (await fetch('/webhooks/received', { cache: 'no-store' })).json();
      if (events.length) {
        $('webhooks').replaceChildren(
          ...events.map((e) => {
            const pre = el('pre', '', JSON.stringify(e.payload, null, 2));
            pre.tabIndex = 0;
            pre.setAttribute(
              'aria-label',
              `policy.issued ${e.payload.policyNumber}, ${e.deliveries} deliver${e.deliveries === 1 ? 'y' : 'ies'}`,
            );
            return pre;
          }),
        );
        const mine = paidQuoteId && events.find((e) => e.payload.quoteId === paidQuoteId);
        if (mine) showPolicy(mine.payload);
      }
    } catch {
      // The back office panel is best-effort; try again shortly.
    }
    setTimeout(refreshWebhooks, 1500);
  }

  if ($('svc-widget')) mountWidget();
  refreshWebhooks();
})();
