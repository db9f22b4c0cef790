import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CHECKOUT_TOKENS, checkoutStyles } from './checkout-style';

/** `--svc-x: value` pairs of a CSS block, whitespace normalised. */
function variables(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of block.matchAll(/(--svc-[a-z-]+)\s*:\s*([^;}]+)/g)) out[m[1]!] = m[2]!.replace(/\s+/g, ' ').trim();
  return out;
}

describe('the checkout pages’ stylesheet', () => {
  it('carries exactly the light tokens of libs/ui tokens.css (one visual language with the widget)', () => {
    const css = readFileSync(path.join(__dirname, '../../../../libs/ui/src/tokens.css'), 'utf8');
    const light = /:root\s*\{([^}]*)\}/.exec(css)![1]!;
    expect(variables(CHECKOUT_TOKENS)).toEqual(variables(light));
  });

  it('uses the tokens for colours: no colour literal in the rules but the error tint', () => {
    const rules = checkoutStyles().replace(CHECKOUT_TOKENS, '');
    expect(rules.match(/#[0-9a-f]{3,8}\b/gi)).toEqual(['#fdecea']);
    expect(rules).toContain('a{color:var(--svc-accent)');
  });

  it('lets an operator colour override the accent, after the tokens', () => {
    const css = checkoutStyles('#7a1f5c');
    expect(css.indexOf('--svc-accent:#7a1f5c')).toBeGreaterThan(css.indexOf(CHECKOUT_TOKENS));
  });
});
