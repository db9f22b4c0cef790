import { STRIPE_JS_URL } from './stripe';

/** A fresh module per test: the loader keeps one load per page. */
const freshLoadStripe = (): typeof import('./stripe').loadStripe => {
  let fn: typeof import('./stripe').loadStripe | undefined;
  jest.isolateModules(() => {
    fn = require('./stripe').loadStripe;
  });
  return fn!;
};

/** A document just big enough for loadStripe: script elements whose load/error the test fires. */
function fakeDocument() {
  const scripts: { src: string; fire: (event: 'load' | 'error') => void }[] = [];
  const win: { Stripe?: (key: string) => unknown } = {};
  const doc = {
    defaultView: win,
    head: { append: (el: { src: string; fire: (e: 'load' | 'error') => void }) => scripts.push(el) },
    createElement: () => {
      const handlers: Record<string, () => void> = {};
      return {
        src: '',
        async: false,
        addEventListener: (type: string, h: () => void) => (handlers[type] = h),
        fire: (type: 'load' | 'error') => handlers[type]?.(),
      };
    },
  };
  return { doc: doc as unknown as Document, scripts, win };
}

describe('loadStripe', () => {
  it('adds one script element for js.stripe.com/v3, only when asked, and builds Stripe with the key', async () => {
    const loadStripe = freshLoadStripe();
    const { doc, scripts, win } = fakeDocument();
    const first = loadStripe('pk_test_1', doc);
    const second = loadStripe('pk_test_2', doc);
    expect(scripts.map((s) => s.src)).toEqual([STRIPE_JS_URL]);
    win.Stripe = (key: string) => ({ key });
    scripts[0]!.fire('load');
    await expect(first).resolves.toEqual({ key: 'pk_test_1' });
    await expect(second).resolves.toEqual({ key: 'pk_test_2' });
    await expect(loadStripe('pk_test_3', doc)).resolves.toEqual({ key: 'pk_test_3' });
    expect(scripts).toHaveLength(1);
  });

  it('rejects when the script fails and tries again on the next call', async () => {
    const loadStripe = freshLoadStripe();
    const { doc, scripts, win } = fakeDocument();
    const failed = loadStripe('pk_test_1', doc);
    scripts[0]!.fire('error');
    await expect(failed).rejects.toThrow('Stripe.js could not be loaded');
    const retry = loadStripe('pk_test_1', doc);
    expect(scripts).toHaveLength(2);
    win.Stripe = (key: string) => ({ key });
    scripts[1]!.fire('load');
    await expect(retry).resolves.toEqual({ key: 'pk_test_1' });
  });
});
