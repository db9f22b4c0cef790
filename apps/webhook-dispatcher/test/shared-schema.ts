import { randomBytes } from 'node:crypto';
import { applyMigrations, createDatabase, syncCatalog, type Database } from '@expedition/db';
import { testDatabaseUrl } from '@expedition/db/testing';
import { catalogSnapshot } from '@expedition/domain-pricing';

export interface SharedSchema {
  url: string;
  schema: string;
  /** DATABASE_URL for another process: the schema rides along as `?schema=`. */
  databaseUrl: string;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

export async function createSharedSchema(): Promise<SharedSchema> {
  const url = testDatabaseUrl();
  const schema = `w_${randomBytes(6).toString('hex')}`;
  const open = () => createDatabase({ databaseUrl: url, schema, poolMax: 4 });
  const admin = await open();
  await applyMigrations(admin);
  await syncCatalog(admin.prisma, catalogSnapshot());
  const withSchema = new URL(url);
  withSchema.searchParams.set('schema', schema);
  return {
    url,
    schema,
    databaseUrl: withSchema.toString(),
    open,
    async drop() {
      await admin.withConnection((executor) => executor.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
      await admin.close();
    },
  };
}
