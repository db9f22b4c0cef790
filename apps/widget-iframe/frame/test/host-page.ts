import express from 'express';
import type { WorldUrls } from './world-config';

/**
 * A host page (another origin) that embeds the frame and plays the loader's part of the protocol (hello → init,
 * resize applied), recording what it receives; /poster forwards a message to the first frame with target "*".
 */
export function createHostPage(urls: WorldUrls): express.Express {
  const app = express();
  app.get(
    '/',
    (_req, res) =>
      void res.type('html')
        .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host</title>
<style>body{font-family:system-ui;margin:0;padding:16px;background:#eef2f6} iframe{width:100%;border:0;display:block;background:#fff;height:200px}</style></head>
<body><h1 style="font-size:18px">Antarctic Peninsula voyage — protect your trip</h1><div id="slot"></div><script>
window.received = []; window.all = []; window.frames_ = {};
window.embed = function (pk, instance, config, opts) {
opts = opts || {};
var iframe = document.createElement('iframe');
iframe.title = 'Travel insurance quote';
iframe.src = '${urls.WIDGET}/frame?pk=' + encodeURIComponent(pk) + '&instance=' + instance + '&parent=' + encodeURIComponent(opts.parent || location.origin);
document.getElementById('slot').append(iframe);
window.frames_[instance] = { iframe: iframe, config: config, hold: !!opts.holdInit, hello: false };
return instance;
};
window.sendInit = function (instance) {
var f = window.frames_[instance];
f.iframe.contentWindow.postMessage({ type: 'svc:frame.init', instanceId: instance, config: f.config }, '${urls.WIDGET}');
};
window.sendUpdate = function (instance, config) {
window.frames_[instance].iframe.contentWindow.postMessage({ type: 'svc:frame.update', instanceId: instance, config: config }, '${urls.WIDGET}');
};
window.addEventListener('message', function (e) {
window.all.push({ origin: e.origin, data: e.data });
var hit = Object.keys(window.frames_).find(function (k) { return window.frames_[k].iframe.contentWindow === e.source; });
if (e.origin !== '${urls.WIDGET}' || !hit) return;
var f = window.frames_[hit];
window.received.push(e.data);
if (e.data.type === 'svc:frame.hello') { f.hello = true; if (!f.hold) window.sendInit(hit); }
if (e.data.type === 'svc:frame.resize') f.iframe.style.height = e.data.height + 'px';
});
</script></body></html>`),
  );
  app.get(
    '/poster',
    (_req, res) =>
      void res.type('html').send(`<!doctype html><title>poster</title><script>
window.addEventListener('message', function (e) { if (e.data && e.data.forward) parent.frames[0].postMessage(e.data.forward, '*'); });
</script>`),
  );
  return app;
}
