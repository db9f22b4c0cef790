module.exports = { ...require('../../jest.preset.js'), displayName: 'policy-documents', rootDir: __dirname };
