module.exports = { ...require('../../jest.preset.js'), displayName: 'agent-wallet', rootDir: __dirname };
