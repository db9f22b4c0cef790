module.exports = { ...require('../../jest.preset.js'), displayName: 'embed-api', rootDir: __dirname };
