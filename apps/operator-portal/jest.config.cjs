// ui/ is its own project (portal-ui) with its own jest config.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'operator-portal',
  rootDir: __dirname,
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/ui/'],
};
