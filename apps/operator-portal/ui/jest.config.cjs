// Pure logic (routing, formatting, the API client's CSRF and 401 handling) and the Chromium journey in test/.
const preset = require('../../../jest.preset.js');

const swc = (tsx) => [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx },
      target: 'es2022',
      transform: { react: { runtime: 'automatic', importSource: 'preact' } },
    },
    module: { type: 'commonjs', ignoreDynamic: true },
    sourceMaps: 'inline',
  },
];

module.exports = {
  ...preset,
  displayName: 'portal-ui',
  rootDir: __dirname,
  testMatch: ['**/?(*.)+(spec).ts', '**/?(*.)+(spec).tsx'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'json'],
  transform: {
    '^.+\\.(t|j)s$': swc(false),
    '^.+\\.tsx$': swc(true),
    // Preact 11 ships ES modules only: compile them to CommonJS for jest.
    '^.+\\.mjs$': swc(false),
  },
  transformIgnorePatterns: ['/node_modules/(?!preact/)'],
  testTimeout: 120000,
};
