module.exports = { ...require('../../jest.preset.js'), displayName: 'webhook-signature', rootDir: __dirname };
