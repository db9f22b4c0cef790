// Shared Jest settings: swc for speed, tsconfig path aliases mapped once here.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace(/[/.]/g, '\\$&')}$`] = path.join(__dirname, target);
}

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)s$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs', ignoreDynamic: true },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testMatch: ['**/?(*.)+(spec).ts'],
  // One line per skipped suite (no service, no browser) after jest's summary: skips are never silent.
  reporters: ['default', path.join(__dirname, 'tools', 'jest', 'skipped-suites-reporter.cjs')],
  testTimeout: 30000,
  setupFiles: [path.join(__dirname, 'tools', 'jest', 'temp-data-dir.cjs')],
};
