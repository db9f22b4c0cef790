// `npm run db:migration:create -- <name>`: writes the next migration from the schema, offline.
// `npm run db:drift` (`--check`): exits 1 and prints the SQL when the schema and the migrations differ.
import { checkDrift, createMigration } from '@expedition/db';

async function check(): Promise<number> {
  const { inSync, sql } = await checkDrift();
  if (inSync) {
    console.log('Schema and migrations are in sync');
    return 0;
  }
  console.error('Drift: schema.prisma differs from the migrations. The next migration would be:\n');
  console.error(sql);
  return 1;
}

async function create(name: string | undefined): Promise<number> {
  if (!name) {
    console.error('Usage: npm run db:migration:create -- <name>');
    return 2;
  }
  const created = await createMigration(name);
  console.log(created.name === null ? 'No changes' : `Created ${created.directory}/migration.sql`);
  return 0;
}

async function main(args: string[]): Promise<number> {
  return args.includes('--check') ? check() : create(args.find((arg) => !arg.startsWith('-')));
}

// Exit explicitly: the schema engine leaves wasm handles that would keep the process alive.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
