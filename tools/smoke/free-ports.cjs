// Prints N ports (default 1) the OS has free on every address, space-separated: each is bound to port 0 and all are held
// until every one is picked, so no two are the same; then released for the caller. The smoke test starts `npm start`
// on them, so a second checkout (or an `npm start` of one's own) on the same machine does not collide.
const net = require('node:net');

async function freePorts(n) {
  const servers = [];
  try {
    for (let i = 0; i < n; i++) {
      const server = net.createServer();
      servers.push(server);
      await new Promise((resolve, reject) => server.once('error', reject).listen(0, resolve));
    }
    return servers.map((s) => s.address().port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(() => resolve()))));
  }
}

module.exports = { freePorts };

if (require.main === module) {
  const n = Number(process.argv[2] ?? 1);
  if (!Number.isInteger(n) || n < 1 || n > 100) {
    console.error('usage: node tools/smoke/free-ports.cjs [count 1-100]');
    process.exit(2);
  }
  freePorts(n).then((ports) => console.log(ports.join(' ')));
}
