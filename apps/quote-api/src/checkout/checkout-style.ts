/**
 * The checkout-link pages' stylesheet, shipped inline under the page's CSP nonce (style-src 'nonce-…': no stylesheet
 * route). One visual language with the widget: `CHECKOUT_TOKENS` are the light --svc-* tokens of libs/ui tokens.css
 * (checkout-style.spec.ts fails when they drift), and every rule below uses only those variables. An operator's brand
 * colour, when set, overrides --svc-accent for the page (docs/portal-api.md, operator branding).
 */
export const CHECKOUT_TOKENS = `:root{--svc-font:system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
--svc-radius:10px;--svc-accent:#0b5cad;--svc-accent-contrast:#ffffff;--svc-bg:#ffffff;--svc-surface:#f5f7fa;
--svc-text:#17202a;--svc-muted:#4d5b6a;--svc-border:#c9d3de;--svc-danger:#b42318;--svc-success:#1a7f37;
--svc-warning:#8a5a00;--svc-focus:#1d4ed8;--svc-shadow:0 1px 2px rgb(16 24 40 / 8%), 0 1px 3px rgb(16 24 40 / 10%);
color-scheme:light}`;

const RULES = `*,*::before,*::after{box-sizing:border-box}
body{font:16px/1.5 var(--svc-font);margin:0;background:var(--svc-surface);color:var(--svc-text)}
main{max-width:40rem;margin:2rem auto;background:var(--svc-bg);border:1px solid var(--svc-border);border-radius:var(--svc-radius);padding:2rem;box-shadow:var(--svc-shadow)}
@media (max-width:30rem){main{margin:1rem .5rem;padding:1.25rem}}
a{color:var(--svc-accent);text-underline-offset:.15em}:focus-visible{outline:3px solid var(--svc-focus);outline-offset:2px}
.brand{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1rem;margin:-2rem -2rem 1.5rem;padding:.9rem 2rem;border-bottom:4px solid var(--svc-accent);border-radius:var(--svc-radius) var(--svc-radius) 0 0;background:var(--svc-bg)}
@media (max-width:30rem){.brand{margin:-1.25rem -1.25rem 1.25rem;padding:.75rem 1.25rem}}
.brand-name{margin:0;display:flex;align-items:center;gap:.6rem;font-weight:700;font-size:1.05rem;min-width:0;overflow-wrap:anywhere}
.brand-logo{max-width:160px;max-height:40px;width:auto;height:auto;object-fit:contain}
h1{font-size:1.4rem;margin-top:0;overflow-wrap:anywhere}dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}
@media (max-width:30rem){dl{grid-template-columns:1fr;gap:0}dd{margin-bottom:.5rem}}
dt{color:var(--svc-muted)}dd{margin:0;min-width:0;overflow-wrap:anywhere}.premium{font-size:1.6rem;font-weight:600}
.notice{background:var(--svc-surface);border-left:4px solid var(--svc-warning);padding:1rem;border-radius:calc(var(--svc-radius) * .6)}
.error{background:#fdecea;color:var(--svc-danger);padding:1rem;border-radius:calc(var(--svc-radius) * .6)}
.success{color:var(--svc-success)}ul{padding-left:1.2rem}li{margin:.3rem 0}h2{font-size:1.1rem;margin:1.4rem 0 .4rem}.nowrap{white-space:nowrap}
form{display:grid;gap:.6rem;margin:1.2rem 0}label{font-weight:600;font-size:.9rem}
input{font:inherit;color:var(--svc-text);background:var(--svc-bg);min-height:40px;padding:.55rem .6rem;border:1px solid var(--svc-border);border-radius:calc(var(--svc-radius) * .6);min-width:0}
button,.button{display:inline-flex;align-items:center;justify-content:center;font:inherit;font-weight:600;min-height:44px;padding:.7rem 1.1rem;border:1px solid transparent;border-radius:var(--svc-radius);background:var(--svc-accent);color:var(--svc-accent-contrast);cursor:pointer;text-decoration:none}
.summary{white-space:pre-wrap;background:var(--svc-surface);padding:1rem;border-radius:calc(var(--svc-radius) * .6)}.muted{color:var(--svc-muted);font-size:.9rem}
.langs{display:flex;flex-wrap:wrap;justify-content:flex-end;gap:.25rem .9rem;font-size:.92rem;margin-left:auto}
.langs a{padding:.35rem .1rem}.langs a[aria-current]{font-weight:700;color:var(--svc-text);text-decoration:none}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}`;

/** The whole inline stylesheet: the shared tokens, then an operator's accent (already validated), then the rules. */
export function checkoutStyles(accent?: string | null): string {
  const brand = accent ? `\n:root{--svc-accent:${accent};--svc-accent-contrast:#ffffff}` : '';
  return `${CHECKOUT_TOKENS}${brand}\n${RULES}`;
}
