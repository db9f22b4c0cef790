import base from '../../../eslint.config.mjs';

export default [
  ...base,
  // Build tooling: the bundle config imports the workspace's rollup preset by path, as every browser project does.
  { files: ['rollup.config.mjs'], rules: { '@nx/enforce-module-boundaries': 'off' } },
  // Tests run in Node under jest (a test server, Chromium through playwright-core), never in the bundle: they may use
  // Node-only test helpers (@expedition/platform/testing). The browser boundary holds for src/ (the shipped code).
  { files: ['test/**/*.ts', 'src/**/*.spec.ts'], rules: { '@nx/enforce-module-boundaries': 'off' } },
];
