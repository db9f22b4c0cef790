// Root `postinstall`: generates the Prisma client for libs/db offline.
// `prisma generate` would try to download a schema-engine binary first; it never uses it, so point it at /bin/true.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const schema = path.join(root, 'libs', 'db', 'prisma', 'schema.prisma');
const prismaCli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');

const result = spawnSync(process.execPath, [prismaCli, 'generate', '--schema', schema], {
  cwd: root,
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: '/bin/true', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
  encoding: 'utf8',
});

if (result.status !== 0) {
  process.stderr.write(result.stdout ?? '');
  process.stderr.write(result.stderr ?? '');
  console.error('prisma generate: failed');
  process.exit(result.status ?? 1);
}
console.log('prisma generate: client written to libs/db/src/generated/prisma');
