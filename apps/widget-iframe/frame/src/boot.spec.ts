import { isOrigin, parseBootData } from './boot';

const ok = {
  kind: 'frame',
  state: 'ok',
  publishableKey: 'pk_op_test_x',
  instanceId: 'w1',
  parentOrigin: 'https://tours.example',
  embedUrl: 'http://localhost:3002/',
  mode: 'test',
  allowedTier: 3,
  payments: { provider: 'simulated' },
  version: '1.0.0',
};

describe('boot data', () => {
  it('reads a well-formed block', () => {
    expect(parseBootData(ok)).toEqual({ ...ok, embedUrl: 'http://localhost:3002' });
  });
  it('refuses a malformed one', () => {
    expect(parseBootData({ ...ok, kind: 'other' })).toBeUndefined();
    expect(parseBootData({ ...ok, embedUrl: 3 })).toBeUndefined();
    expect(parseBootData(null)).toBeUndefined();
  });
  it('never keeps "*" or a non-origin as the parent origin', () => {
    expect(parseBootData({ ...ok, parentOrigin: '*' })?.parentOrigin).toBeUndefined();
    expect(parseBootData({ ...ok, parentOrigin: 'https://tours.example/page' })?.parentOrigin).toBeUndefined();
    expect(isOrigin('http://localhost:4200')).toBe(true);
    expect(isOrigin('null')).toBe(false);
  });
  it("keeps the document's language the server chose (a short tag), and drops anything else", () => {
    expect(parseBootData({ ...ok, locale: 'de' })?.locale).toBe('de');
    expect(parseBootData({ ...ok, locale: 'x'.repeat(36) })?.locale).toBeUndefined();
    expect(parseBootData({ ...ok, locale: 7 })?.locale).toBeUndefined();
  });

  it('caps an unknown tier at 1', () => {
    expect(parseBootData({ ...ok, allowedTier: 9 })?.allowedTier).toBe(1);
  });
});
