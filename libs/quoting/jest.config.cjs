module.exports = { ...require('../../jest.preset.js'), displayName: 'quoting', rootDir: __dirname };
