module.exports = { ...require('../../jest.preset.js'), displayName: 'operators', rootDir: __dirname };
