import { acceptMessage, createPoster, sanitizeConfig } from './messaging';

const parent = { postMessage: jest.fn() };
const target = { parent, parentOrigin: 'https://tours.example', instanceId: 'w1' };
const init = { type: 'svc:frame.init', instanceId: 'w1', config: { tier: 2, prefill: { destination: 'arctic' } } };

describe('the frame side of the svc: channel', () => {
  it('accepts init and update from the parent window at the parent origin for this instance', () => {
    expect(acceptMessage({ source: parent as never, origin: 'https://tours.example', data: init }, target)).toEqual({
      kind: 'init',
      config: { tier: 2, prefill: { destination: 'arctic' } },
    });
    expect(
      acceptMessage(
        { source: parent as never, origin: 'https://tours.example', data: { ...init, type: 'svc:frame.update' } },
        target,
      )?.kind,
    ).toBe('update');
  });

  it('ignores another window, another origin, another instance, unknown types and malformed data', () => {
    const other = { postMessage: jest.fn() };
    expect(
      acceptMessage({ source: other as never, origin: 'https://tours.example', data: init }, target),
    ).toBeUndefined();
    expect(
      acceptMessage({ source: parent as never, origin: 'https://evil.example', data: init }, target),
    ).toBeUndefined();
    expect(
      acceptMessage(
        { source: parent as never, origin: 'https://tours.example', data: { ...init, instanceId: 'w2' } },
        target,
      ),
    ).toBeUndefined();
    expect(
      acceptMessage(
        { source: parent as never, origin: 'https://tours.example', data: { ...init, type: 'svc:quote.selected' } },
        target,
      ),
    ).toBeUndefined();
    expect(
      acceptMessage({ source: parent as never, origin: 'https://tours.example', data: 'svc:frame.init' }, target),
    ).toBeUndefined();
    expect(
      acceptMessage({ source: parent as never, origin: 'https://tours.example', data: null }, target),
    ).toBeUndefined();
  });

  it('keeps only well-typed config fields', () => {
    expect(
      sanitizeConfig({
        tier: 4,
        locale: 12,
        appearance: { accentColor: '#123456', borderRadius: 3, theme: 'neon' },
        prefill: { destination: 'arctic', tripCost: '900', travelers: 2, travelerAges: [30, 'x'], email: 'a@b.co' },
        extra: true,
      }),
    ).toEqual({
      appearance: { accentColor: '#123456' },
      prefill: { destination: 'arctic', travelers: 2, email: 'a@b.co' },
    });
    expect(sanitizeConfig('nope')).toEqual({});
  });

  it('posts only to the parent with the verified origin as target, never "*"', () => {
    const post = jest.fn();
    const poster = createPoster({
      parent: { postMessage: post },
      parentOrigin: 'https://tours.example',
      instanceId: 'w1',
    });
    poster.hello('1.0.0');
    poster.resize(321);
    poster.event('quote.selected', { planId: 'p', premiumCents: 41234, currency: 'USD' });
    expect(post.mock.calls).toEqual([
      [{ type: 'svc:frame.hello', version: '1.0.0', instanceId: 'w1' }, 'https://tours.example'],
      [{ type: 'svc:frame.resize', height: 321, instanceId: 'w1' }, 'https://tours.example'],
      [
        {
          type: 'svc:quote.selected',
          payload: { planId: 'p', premiumCents: 41234, currency: 'USD' },
          instanceId: 'w1',
        },
        'https://tours.example',
      ],
    ]);
  });
});
