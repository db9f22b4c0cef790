/** The fuzz run's size and seed, from the environment (README, Commands: FUZZ_RUNS, FUZZ_SEED). */
export const FUZZ_RUNS = Number(process.env['FUZZ_RUNS'] || 1000);
export const FUZZ_SEED = Number(process.env['FUZZ_SEED'] || 20261123);
export const FUZZ_CONCURRENCY = Number(process.env['FUZZ_CONCURRENCY'] || 4);
