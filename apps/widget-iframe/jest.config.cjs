module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'widget-iframe',
  rootDir: __dirname,
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/loader/', '<rootDir>/frame/', '<rootDir>/releases/'],
};
