module.exports = { ...require('../../jest.preset.js'), displayName: 'quote-api', rootDir: __dirname };
