// `npm run db:migrate`: applies pending migrations to DATABASE_URL, or to the PGlite database under DATA_DIR.
import { applyMigrations, createDatabase } from '@expedition/db';
import { loadMigrateConfig } from './config';

async function main(): Promise<void> {
  const { databaseUrl, dataDir, migrationsDir } = loadMigrateConfig();
  const db = await createDatabase({ databaseUrl, dataDir });
  try {
    const target = db.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite (${dataDir}/pglite)`;
    const { applied } = await applyMigrations(db, {
      migrationsDir,
      onApplied: (name) => console.log(`applied ${name}`),
    });
    console.log(applied.length === 0 ? `${target}: up to date` : `${target}: ${applied.length} migration(s) applied`);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
