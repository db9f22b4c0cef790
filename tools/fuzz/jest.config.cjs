// Property-based HTTP fuzzing of every public route (issue 12 §5). FUZZ_RUNS inputs per route, FUZZ_SEED to replay.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'fuzz',
  rootDir: __dirname,
  // One test per app walks every route: minutes at FUZZ_RUNS=1000. The suites wait on the database more than they
  // compute, so two workers run two apps at once.
  testTimeout: 1_800_000,
  maxWorkers: 2,
};
