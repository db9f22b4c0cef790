import { existsSync } from 'node:fs';
import path from 'node:path';

// Candidates: the source tree (tsx, jest), then the repo root as cwd (tools, the launcher, bundles run from the repo).
function candidates(relativeToLib: string): string[] {
  const fromSource = typeof __dirname === 'string' ? [path.resolve(__dirname, '..', relativeToLib)] : [];
  return [...fromSource, path.resolve(process.cwd(), 'libs', 'db', relativeToLib)];
}

function firstExisting(what: string, list: string[]): string {
  const found = list.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(
      `Cannot find the ${what} (looked in ${list.join(', ')}); pass it explicitly or run from the repo root`,
    );
  }
  return found;
}

/**
 * Migrations folder: the explicit path (a bundle's own folder, or a tool's MIGRATIONS_DIR from its config), else
 * libs/db/prisma/migrations found from source or cwd. The lib reads no environment variable itself.
 */
export function resolveMigrationsDir(explicit?: string): string {
  if (explicit) return path.resolve(explicit);
  return firstExisting('migrations folder', candidates(path.join('prisma', 'migrations')));
}

/** Prisma schema file: explicit path, else libs/db/prisma/schema.prisma found from source or cwd. */
export function resolveSchemaPath(explicit?: string): string {
  if (explicit) return path.resolve(explicit);
  return firstExisting('Prisma schema', candidates(path.join('prisma', 'schema.prisma')));
}
