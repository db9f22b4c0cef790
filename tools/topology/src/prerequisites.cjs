// What the topology suite needs on this machine: PostgreSQL 15's server binaries (it runs its OWN cluster),
// redis-server (its OWN instance) and the built apps in dist/. Prints one line (an Nx runtime input of the test
// target, so a run with them is never answered from the cache of a run without them); the spec skips with the reason.
const { existsSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PG_BIN = process.env.TOPOLOGY_PG_BIN || '/usr/lib/postgresql/15/bin';
const APPS = ['quote-api', 'embed-api', 'webhook-dispatcher'];
/** Where the built apps are: `dist/apps` (what `nx build` writes); TOPOLOGY_DIST_DIR runs another build of them. */
const DIST_DIR = process.env.TOPOLOGY_DIST_DIR
  ? path.resolve(process.env.TOPOLOGY_DIST_DIR)
  : path.join(ROOT, 'dist', 'apps');

function findRedisServer() {
  const candidates = [process.env.TOPOLOGY_REDIS_SERVER, '/usr/bin/redis-server', '/usr/local/bin/redis-server'];
  return candidates.find((c) => c && existsSync(c));
}

function prerequisites() {
  const missing = [];
  for (const bin of ['initdb', 'pg_ctl'])
    if (!existsSync(path.join(PG_BIN, bin)))
      missing.push(`${path.join(PG_BIN, bin)} (PostgreSQL server binaries; set TOPOLOGY_PG_BIN)`);
  const redisServer = findRedisServer();
  if (!redisServer) missing.push('redis-server (set TOPOLOGY_REDIS_SERVER)');
  for (const app of APPS) {
    const main = path.join(DIST_DIR, app, 'main.js');
    if (!existsSync(main)) missing.push(`${path.relative(ROOT, main)} (run: npx nx run ${app}:build)`);
  }
  return { pgBin: PG_BIN, redisServer, root: ROOT, distDir: DIST_DIR, apps: APPS, missing };
}

module.exports = { prerequisites };

if (require.main === module) {
  const p = prerequisites();
  console.log(
    p.missing.length === 0
      ? 'topology prerequisites present'
      : `topology prerequisites missing: ${p.missing.join('; ')}`,
  );
}
