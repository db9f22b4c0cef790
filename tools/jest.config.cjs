// The tools project's own specs (repository checks, demo site); admin, agent-wallet and e2e are projects of their own.
module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'tools',
  rootDir: __dirname,
  roots: [
    '<rootDir>/bench',
    '<rootDir>/checks',
    '<rootDir>/demo-site',
    '<rootDir>/jest',
    '<rootDir>/launcher',
    '<rootDir>/monitoring',
    '<rootDir>/smoke',
    '<rootDir>/widget',
  ],
  testTimeout: 180000,
};
