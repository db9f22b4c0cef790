module.exports = { ...require('../../jest.preset.js'), displayName: 'domain-pricing', rootDir: __dirname };
