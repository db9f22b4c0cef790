// Unit tests of the loader: validation (and its agreement with the zod MountConfigSchema), the built bundle's size
// budget and behaviour without a window, and the published pinned releases' checksums. Chromium suites live in
// tools/e2e (widget-*.browser.spec.ts).
module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'widget-loader',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
};
