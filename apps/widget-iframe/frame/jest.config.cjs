// Unit specs beside the code (pure logic) and the Chromium suite in test/ (the bundle served with a fake embed API).
module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'widget-frame',
  rootDir: __dirname,
  testTimeout: 60000,
};
