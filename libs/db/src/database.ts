import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaClient } from './generated/prisma/client';
import { pgliteConnections, pgPoolConnections, type WithConnection } from './executor';
import { createPgNotifications, type Notifications } from './notifications';
import { runRowsOnPool } from './direct-rows';
import { preparedStatementName } from './prepared';

export type DatabaseKind = 'postgres' | 'pglite';

export interface Database {
  prisma: PrismaClient;
  kind: DatabaseKind;
  /** Resolves when the database answers a trivial query (readiness probes). */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** One dedicated raw connection, for the migration runner and other session-level work. */
  withConnection: WithConnection;
  /**
   * PostgreSQL only: `LISTEN/NOTIFY` wake-ups for the workers (one dedicated connection, opened on the first
   * subscription). Absent on PGlite, where the workers poll.
   */
  notifications?: Notifications;
}

export interface CreateDatabaseOptions {
  /** PostgreSQL connection string; when absent, PGlite under dataDir is used. */
  databaseUrl?: string;
  /** PGlite only: the database lives in `<dataDir>/pglite` (default `.data`). */
  dataDir?: string;
  /** PostgreSQL only: work inside this schema (created if missing); tests use it for isolation. */
  schema?: string;
  /** PostgreSQL pool size (default 10). */
  poolMax?: number;
  /**
   * PostgreSQL: how long a query waits for a connection (a new one, or a free one of a full pool) before it fails
   * (default 10 s). Without it a database that accepts connections but never answers hangs every request.
   */
  connectTimeoutMs?: number;
  /** Called with the text of every SQL statement the Prisma client sends (its `query` event); for tests. */
  onQuery?: (sql: string) => void;
}

/**
 * The Prisma client over a driver adapter; with `onQuery`, reporting every statement it sends.
 *
 * `errorFormat: 'minimal'` whatever NODE_ENV says. Prisma's default outside production ('colorless') records a stack
 * at every query and, on every failed one, reads the calling source file whole to quote its lines in the message:
 * in a bundled app that file is the 10 MB bundle, about 100 ms of blocked event loop per error, so a database outage
 * (every worker's round failing) left the process too late to answer /readyz (docs/decisions.md, "Prisma errors").
 * Our logs carry the error's own stack, which points at the caller.
 */
function prismaClient(adapter: PrismaPg | PrismaPGliteAdapter, onQuery?: (sql: string) => void): PrismaClient {
  if (!onQuery) return new PrismaClient({ adapter, errorFormat: 'minimal' });
  const client = new PrismaClient({
    adapter,
    errorFormat: 'minimal',
    log: [{ emit: 'event' as const, level: 'query' as const }],
  });
  client.$on('query', (event) => onQuery(event.query));
  return client as unknown as PrismaClient;
}

type PrismaPGliteAdapter = InstanceType<typeof import('pglite-prisma-adapter').PrismaPGlite>;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid schema name: ${schema}`);
}

// Duplicate-object errors: two pools creating the same schema at once race even with IF NOT EXISTS.
const ALREADY_EXISTS = new Set(['42P06', '23505']);

async function ensureSchema(pool: Pool, schema: string): Promise<void> {
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (error) {
    if (!ALREADY_EXISTS.has((error as { code?: string }).code ?? '')) throw error;
  }
}

async function createPostgresDatabase(databaseUrl: string, options: CreateDatabaseOptions): Promise<Database> {
  const { schema } = options;
  if (schema !== undefined) assertSchemaName(schema);
  const pool = new Pool({
    connectionString: databaseUrl,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    // search_path makes raw SQL and the migration runner land in the same schema as the Prisma queries.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client that loses its server must not crash the process; the next checkout reconnects.
  pool.on('error', () => undefined);
  // Nor a checked-out one (a transaction's, the direct runner's) whose server goes away between two statements, when
  // no query is there to receive the error: pg then emits 'error' on the client, and unheard it ends the process (a
  // PostgreSQL restart under traffic did). The holder's next query fails, and the pool drops the client.
  pool.on('connect', (client) => client.on('error', () => undefined));
  if (schema) await ensureSchema(pool, schema);
  const adapter = new PrismaPg(pool, {
    ...(schema ? { schema } : {}),
    statementNameGenerator: preparedStatementName,
  });
  const prisma = prismaClient(adapter, options.onQuery);
  runRowsOnPool(prisma, pool, options.onQuery);
  const notifications = createPgNotifications({ client: { connectionString: databaseUrl }, schema });
  return {
    prisma,
    kind: 'postgres',
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await notifications.close();
      await prisma.$disconnect();
      await pool.end();
    },
    notifications,
    withConnection: pgPoolConnections(pool),
  };
}

/** Wraps an open PGlite instance (file-backed or in memory) as a Database; close() closes the instance. */
export async function databaseFromPGlite(
  pglite: PGlite,
  options: Pick<CreateDatabaseOptions, 'onQuery'> = {},
): Promise<Database> {
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const prisma = prismaClient(new PrismaPGlite(pglite), options.onQuery);
  return {
    prisma,
    kind: 'pglite',
    async ping() {
      await pglite.query('SELECT 1');
    },
    async close() {
      await prisma.$disconnect();
      if (!pglite.closed) await pglite.close();
    },
    withConnection: pgliteConnections(pglite),
  };
}

// Loaded lazily so that a deployment with DATABASE_URL never loads (or needs) PGlite; bundles mark it external.
async function loadPGlite(): Promise<typeof import('@electric-sql/pglite')> {
  try {
    return await import('@electric-sql/pglite');
  } catch (error) {
    throw new Error('DATABASE_URL is not set and PGlite is not available in this build; set DATABASE_URL', {
      cause: error,
    });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// PGlite does not stop a second process from opening the same files (which corrupts them), so we do:
// `<dataDir>/pglite.pid` names the owner; a file left by a dead process is taken over.
function lockDataDir(dataDir: string): () => void {
  const lockFile = path.join(dataDir, 'pglite.pid');
  try {
    writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  } catch {
    const owner = Number(readFileSync(lockFile, 'utf8').trim());
    if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
      throw new Error(
        `The PGlite database in ${dataDir} is in use by process ${owner}; stop it first ` +
          `(or delete ${lockFile} if it is stale)`,
      );
    }
    writeFileSync(lockFile, String(process.pid));
  }
  return () => rmSync(lockFile, { force: true });
}

async function createPGliteDatabase(dataDir: string): Promise<Database> {
  const { PGlite } = await loadPGlite();
  const root = path.resolve(dataDir);
  mkdirSync(path.join(root, 'pglite'), { recursive: true });
  const unlock = lockDataDir(root);
  try {
    const db = await databaseFromPGlite(await PGlite.create(path.join(root, 'pglite')));
    return {
      ...db,
      async close() {
        await db.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * PostgreSQL through @prisma/adapter-pg when databaseUrl is given, else a file-backed PGlite.
 * PGlite serves a single connection: only one process may open a given dataDir.
 */
export async function createDatabase(options: CreateDatabaseOptions = {}): Promise<Database> {
  if (options.databaseUrl) {
    const { url, schema } = splitSchemaParam(options.databaseUrl);
    return createPostgresDatabase(url, { ...options, schema: options.schema ?? schema });
  }
  return createPGliteDatabase(options.dataDir ?? '.data');
}

/**
 * Accepts Prisma's URL convention `…/db?schema=name` (the pg driver must not see the parameter); an explicit
 * `schema` option wins.
 */
export function splitSchemaParam(databaseUrl: string): { url: string; schema?: string } {
  let parsed: URL;
  try {
    parsed = new URL(databaseUrl);
  } catch {
    return { url: databaseUrl };
  }
  const schema = parsed.searchParams.get('schema');
  if (!schema) return { url: databaseUrl };
  parsed.searchParams.delete('schema');
  return { url: parsed.toString(), schema };
}
