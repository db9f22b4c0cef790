// Generated Prisma client (run `node tools/scripts/prisma-generate.cjs` after a schema change).
export { PrismaClient, Prisma } from './generated/prisma/client';
export type {
  Operator,
  OperatorUser,
  OperatorSession,
  PublishableKey,
  SecretKey,
  AllowedOrigin,
  Plan,
  Quote,
  QuoteEstimate,
  QuoteOption,
  CheckoutSession,
  PaymentChallenge,
  IdempotencyRecord,
  Payment,
  PaymentClaim,
  ProcessorEvent,
  Purchase,
  Policy,
  Commission,
  WebhookEvent,
  WebhookAttempt,
  AgentKey,
  AcpCheckoutSession,
  PolicyMail,
} from './generated/prisma/client';
export {
  OperatorStatus,
  QuoteSource,
  QuoteStatus,
  OptionsStatus,
  CheckoutStatus,
  PaymentChannel,
  PaymentStatus,
  RefundStatus,
  WebhookEventStatus,
  UserRole,
  PolicyMailStatus,
} from './generated/prisma/enums';

export { createDatabase, databaseFromPGlite, splitSchemaParam } from './database';
export type { Database, DatabaseKind, CreateDatabaseOptions } from './database';
export { pgClientExecutor, pgliteExecutor, pgPoolConnections, pgliteConnections } from './executor';
export type { SqlExecutor, WithConnection } from './executor';
export { applyMigrations, runMigrations, readMigrations, toMigration, checksumOf, MigrationError } from './migrations';
export type { Migration, MigrationResult, RunMigrationsOptions, ApplyMigrationsOptions } from './migrations';
export { resolveMigrationsDir, resolveSchemaPath } from './paths';
export { createMigration, createMigrationSql, checkDrift, nextMigrationName } from './migration-authoring';
export type {
  CreatedMigration,
  CreateMigrationOptions,
  DriftReport,
  MigrationAuthoringOptions,
} from './migration-authoring';
export { isUniqueViolation } from './errors';
export { createPgNotifications, NOTIFY_CHANNELS } from './notifications';
export type { Notifications, NotifyChannel, PgNotificationsOptions } from './notifications';
export { syncCatalog, type CatalogPlanRow, type CatalogSnapshot } from './catalog-sync';
export {
  bundledMigrationsDir,
  prepareDatabase,
  serviceDatabase,
  type ServiceDatabaseSettings,
} from './prepare-database';
