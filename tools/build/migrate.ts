// The release step of a deployed version, bundled next to every app's main.js as `migrate.js` (`npm run migrate`
// in dist/apps/<app>, the Kubernetes migration Job): applies pending migrations from the bundle's `migrations/`
// folder and syncs the plan catalog, then exits. The apps do the same at start (idempotent, under an advisory
// lock), so running it first only moves the work and its failures out of the rollout.
import { z } from 'zod';
import { bundledMigrationsDir, createDatabase, prepareDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { ConfigError, envVar, parseConfig } from '@expedition/platform';

const MigrateJobEnv = z.object({ DATABASE_URL: envVar.databaseUrl() });

async function main(): Promise<void> {
  const { DATABASE_URL } = parseConfig(MigrateJobEnv, process.env);
  // Never PGlite here: the release step only makes sense against the deployment's PostgreSQL.
  if (!DATABASE_URL) throw new ConfigError(['DATABASE_URL: required (the PostgreSQL to migrate)']);
  const migrationsDir = bundledMigrationsDir(__dirname);
  if (!migrationsDir) throw new ConfigError([`migrations: no migrations folder next to ${__filename}`]);
  const db = await createDatabase({ databaseUrl: DATABASE_URL });
  try {
    const { applied, plans } = await prepareDatabase(db, { catalog: catalogSnapshot(), migrationsDir });
    console.log(JSON.stringify({ msg: 'database ready', migrationsApplied: applied, plans }));
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
