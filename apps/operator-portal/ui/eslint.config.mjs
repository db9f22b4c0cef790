import base from '../../../eslint.config.mjs';

export default [
  ...base,
  // The bundle config is build tooling: it imports the workspace's rollup preset by path, as every browser project does.
  { files: ['rollup.config.mjs'], rules: { '@nx/enforce-module-boundaries': 'off' } },
];
