/**
 * `npx tsx --tsconfig tools/tsconfig.json tools/agent-wallet/main.ts [options]`: pays a quote through
 * POST /api/v1/purchase the way an agent's wallet would (402 challenge → credential → receipt). Thin wrapper: every
 * behaviour lives in runWallet (src/run-wallet.ts), which tests drive in-process.
 */
import { runWallet } from './src/run-wallet';

runWallet(process.argv.slice(2), { fetch: (url, init) => fetch(url, init), env: process.env })
  .then((result) => {
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    process.exitCode = result.exitCode;
  })
  .catch((error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
