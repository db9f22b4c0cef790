import { z } from 'zod';
import { envVar, parseConfig, type Env } from '@expedition/platform';

/** `npm run db:migrate`: the one place its environment is read. */
const MigrateEnvSchema = z
  .object({
    /** PostgreSQL to migrate; unset: the PGlite database under DATA_DIR. */
    DATABASE_URL: envVar.databaseUrl(),
    DATA_DIR: envVar.dataDir(),
    /** Another migrations folder (default: libs/db/prisma/migrations of this checkout). */
    MIGRATIONS_DIR: envVar.string(),
  })
  .transform((env) => ({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, migrationsDir: env.MIGRATIONS_DIR }));

export type MigrateConfig = z.infer<typeof MigrateEnvSchema>;

export function loadMigrateConfig(env: Env = process.env): Readonly<MigrateConfig> {
  return parseConfig(MigrateEnvSchema, env);
}
