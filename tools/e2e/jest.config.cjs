module.exports = { ...require('../../jest.preset.js'), displayName: 'e2e', rootDir: __dirname, testTimeout: 120000 };
