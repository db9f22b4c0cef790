// The deployed topology on one machine: built apps as separate processes on a private PostgreSQL and Redis.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'topology',
  rootDir: __dirname,
  testTimeout: 240000,
};
