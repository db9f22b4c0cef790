module.exports = { ...require('../../jest.preset.js'), displayName: 'auth-publishable-key', rootDir: __dirname };
