import { z } from 'zod';
import { emptyToUndefined, parseConfig } from '@expedition/http-kit';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());

const ConfigSchema = z
  .object({
    LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).default('info'),
    HOST: optional(z.string()).default('0.0.0.0'),
    QUOTE_API_PORT: optional(z.coerce.number().int().min(0).max(65535)).default(3001),
    QUOTE_API_URL: optional(z.url()),
    DATABASE_URL: optional(z.string()),
    DATA_DIR: optional(z.string()).default('.data'),
    REDIS_URL: optional(z.string()),
    TRUST_PROXY: optional(z.string()),
    QUOTE_API_RATE_LIMIT_PER_MINUTE: optional(z.coerce.number().int().positive()).default(120),
  })
  .transform((env) => ({
    logLevel: env.LOG_LEVEL,
    host: env.HOST,
    port: env.QUOTE_API_PORT,
    publicUrl: (env.QUOTE_API_URL ?? `http://localhost:${env.QUOTE_API_PORT}`).replace(/\/$/, ''),
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    redisUrl: env.REDIS_URL,
    trustProxy: env.TRUST_PROXY,
    rateLimitPerMinute: env.QUOTE_API_RATE_LIMIT_PER_MINUTE,
  }));

export type QuoteApiConfig = z.infer<typeof ConfigSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): QuoteApiConfig {
  return parseConfig(ConfigSchema, env);
}
