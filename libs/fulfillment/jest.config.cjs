module.exports = { ...require('../../jest.preset.js'), displayName: 'fulfillment', rootDir: __dirname };
