// Which test services this machine has: PostgreSQL at TEST_DATABASE_URL, Redis at TEST_REDIS_URL, Chromium at
// CHROMIUM_PATH. Suites that need one skip without it (or fail with REQUIRE_SERVICES=1), so a test result depends on
// the answer: nx.json makes this script's output a runtime input of every test target (a run with PostgreSQL is
// never answered from the cache of a run without it), and the skipped-suites reporter uses it to explain a skip.
// `node tools/scripts/test-services.cjs` prints one line.
const { existsSync } = require('node:fs');
const net = require('node:net');

const DEFAULTS = {
  TEST_DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/test',
  TEST_REDIS_URL: 'redis://127.0.0.1:6379',
  CHROMIUM_PATH: '/usr/bin/chromium',
};

function settings(env = process.env) {
  return {
    databaseUrl: env.TEST_DATABASE_URL || DEFAULTS.TEST_DATABASE_URL,
    redisUrl: env.TEST_REDIS_URL || DEFAULTS.TEST_REDIS_URL,
    chromiumPath: env.CHROMIUM_PATH || DEFAULTS.CHROMIUM_PATH,
    requireServices: env.REQUIRE_SERVICES === '1',
  };
}

function redact(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** The same check as libs/db/src/testing.ts: connect and SELECT 1 within 2 s. */
async function postgresUp(url) {
  let Client;
  try {
    ({ Client } = require('pg'));
  } catch {
    return false;
  }
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The same check as the Redis suites: PING answers +PONG within 1 s. */
function redisUp(url) {
  return new Promise((resolve) => {
    let target;
    try {
      target = new URL(url);
    } catch {
      return resolve(false);
    }
    const socket = net.connect(Number(target.port) || 6379, target.hostname || '127.0.0.1');
    const done = (up) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(String(data).startsWith('+PONG')));
  });
}

async function probeServices(env = process.env) {
  const s = settings(env);
  const [postgres, redis] = await Promise.all([postgresUp(s.databaseUrl), redisUp(s.redisUrl)]);
  return {
    postgres: { url: redact(s.databaseUrl), up: postgres },
    redis: { url: redact(s.redisUrl), up: redis },
    chromium: { path: s.chromiumPath, up: existsSync(s.chromiumPath) },
    requireServices: s.requireServices,
  };
}

function describeServices(services) {
  const state = (up) => (up ? 'up' : 'down');
  return [
    `postgres=${state(services.postgres.up)} ${services.postgres.url}`,
    `redis=${state(services.redis.up)} ${services.redis.url}`,
    `chromium=${services.chromium.up ? 'present' : 'absent'} ${services.chromium.path}`,
    `REQUIRE_SERVICES=${services.requireServices ? 1 : 0}`,
  ].join(' ');
}

module.exports = { probeServices, describeServices };

if (require.main === module) {
  probeServices().then((services) => console.log(describeServices(services)));
}
