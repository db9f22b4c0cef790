// Generated Prisma client (run `node tools/scripts/prisma-generate.cjs` after a schema change).
export { PrismaClient, Prisma } from './generated/prisma/client';
export type {
  AcpCheckoutSession,
  AgentKey,
  Operator,
  Payment,
  PublishableKey,
  Purchase,
  Quote,
  QuoteEstimate,
  SecretKey,
} from './generated/prisma/client';
export { PaymentChannel, PaymentStatus, PolicyMailStatus } from './generated/prisma/enums';

export { createDatabase, splitSchemaParam } from './database';
export type { Database } from './database';
export { applyMigrations } from './migrations';
export { checkDrift, createMigration } from './migration-authoring';
export { isUniqueViolation } from './errors';
export { prepared } from './prepared';
export { queryRows } from './direct-rows';
export { NOTIFY_CHANNELS } from './notifications';
export type { Notifications } from './notifications';
export { syncCatalog } from './catalog-sync';
export { bundledMigrationsDir, prepareDatabase, serviceDatabase } from './prepare-database';
