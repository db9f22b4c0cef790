import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from './logger';
import { DEFAULT_PORT_BASE, PortBaseSchema, SERVICES, type Service } from './service-ports';

/** The environment as a config module receives it (`process.env` in composition roots, a literal in tests). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * A bad configuration. The message is ONE line naming every offending variable, so a composition root prints
 * `err.message` and exits without a stack trace.
 */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration: ${problems.map((p) => p.replace(/\s*\n\s*/g, ' ')).join('; ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses environment variables once with a zod schema and freezes the result. Each app or tool calls this in its
 * `config.ts` only; nothing else reads `process.env`.
 */
export function parseConfig<S extends z.ZodType>(schema: S, env: Env): Readonly<z.infer<S>> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  return Object.freeze(result.data);
}

/**
 * Another module's configuration error (the payments lib's, the keyring parser's …) as a ConfigError: its
 * `problems` when it has them, else its message split into lines. A ConfigError passes through.
 */
export function asConfigError(err: unknown): ConfigError {
  if (err instanceof ConfigError) return err;
  const problems = (err as { problems?: unknown } | null)?.problems;
  if (Array.isArray(problems) && problems.length > 0 && problems.every((p) => typeof p === 'string')) {
    return new ConfigError(problems);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ConfigError(message.split('\n').filter((line) => line.trim() !== ''));
}

/**
 * The usual start of a loadConfig: parseConfig, then the variables of `productionRequired` that production lacks
 * (missingInProduction) as a ConfigError.
 */
export function parseServiceConfig<S extends z.ZodType>(
  schema: S,
  env: Env,
  productionRequired: readonly string[],
): Readonly<z.infer<S>> {
  const config = parseConfig(schema, env);
  const missing = missingInProduction(env, productionRequired);
  if (missing.length > 0) throw new ConfigError(missing);
  return config;
}

/** Another module's settings reader (the payments lib's …), its error thrown as a ConfigError (asConfigError). */
export function readSettings<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw asConfigError(err);
  }
}

/** `NODE_ENV=production`: a deployment where no secret may fall back to a development default. */
export function isProduction(env: Env): boolean {
  return env['NODE_ENV']?.trim() === 'production';
}

/**
 * With `NODE_ENV=production`, one problem per variable of `names` that is unset or blank (each app's loadConfig
 * throws them as a ConfigError); nothing otherwise, so embedded `npm start` keeps its generated defaults.
 */
export function missingInProduction(env: Env, names: readonly string[]): string[] {
  if (!isProduction(env)) return [];
  return names.filter((name) => !env[name]?.trim()).map((name) => `${name}: required when NODE_ENV=production`);
}

/** Empty strings in the environment mean "unset". */
export function emptyToUndefined(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

/** An optional variable: unset and blank both mean "not given". Chain `.default(…)` for a fallback. */
export function optionalVar<T extends z.ZodType>(schema: T) {
  return z.preprocess(emptyToUndefined, schema.optional());
}

export const PortSchema = z.coerce.number().int().min(0).max(65535);
export const LogLevelSchema = z.enum(LOG_LEVELS);
export const DatabaseUrlSchema = z
  .string()
  .trim()
  .regex(/^postgres(?:ql)?:\/\//, 'must be a postgres:// or postgresql:// URL');
export const RedisUrlSchema = z
  .string()
  .trim()
  .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL');

/**
 * The variables every service reads the same way, as schema pieces to spread into an app's `z.object({ … })`:
 * `PORT_NAME: envVar.port(3001)`, `LOG_LEVEL: envVar.logLevel()`, `DATABASE_URL: envVar.databaseUrl()` …
 */
export const envVar = {
  /** LOG_LEVEL: one of pino's levels. */
  logLevel: (fallback: LogLevel = 'info') => optionalVar(LogLevelSchema).default(fallback),
  /** The interface to listen on. */
  host: (fallback = '0.0.0.0') => optionalVar(z.string().trim()).default(fallback),
  /** A TCP port, 0–65535 (0: any free port). */
  port: (fallback: number) => optionalVar(PortSchema).default(fallback),
  /** PORT_BASE: every service's default port is PORT_BASE + its offset (service-ports.ts). */
  portBase: () => optionalVar(PortBaseSchema).default(DEFAULT_PORT_BASE),
  /** A service's own `*_PORT` (0–65535); unset: resolvePort derives it from PORT_BASE (service-ports.ts). */
  servicePort: () => optionalVar(PortSchema),
  /** An absolute http(s) URL, e.g. a public base URL. */
  url: () => optionalVar(z.url({ protocol: /^https?$/ })),
  /** Where embedded mode keeps its PGlite database and the demo operator file. */
  dataDir: (fallback = '.data') => optionalVar(z.string().trim()).default(fallback),
  /** PostgreSQL; unset means PGlite under DATA_DIR. */
  databaseUrl: () => optionalVar(DatabaseUrlSchema),
  /** Redis for shared rate limits; unset means in-process counters. */
  redisUrl: () => optionalVar(RedisUrlSchema),
  /** Express's `trust proxy` setting, passed through. */
  /**
   * Express's `trust proxy`: a whole number is the count of proxies in front of the app (`1`: one load balancer), as
   * Express reads a number; anything else is a list of addresses, subnets or names (`loopback`, `10.0.0.0/8`). Express
   * would read the string `"1"` as the address 0.0.0.1 (trusting nothing), and `true` would trust a client's own
   * X-Forwarded-For, so `true` is refused.
   */
  trustProxy: () =>
    optionalVar(
      z
        .string()
        .trim()
        .refine(
          (v) => v !== 'true',
          'use the number of proxies in front of the app (e.g. 1) or their addresses, not true',
        )
        .transform((v): number | string => (/^\d+$/.test(v) ? Number(v) : v)),
    ),
  /** A whole number within bounds. */
  int: (bounds: { min?: number; max?: number } = {}) =>
    optionalVar(
      z.coerce
        .number()
        .int()
        .min(bounds.min ?? Number.MIN_SAFE_INTEGER)
        .max(bounds.max ?? Number.MAX_SAFE_INTEGER),
    ),
  /** A plain string (trimmed). */
  string: () => optionalVar(z.string().trim()),
  /** `true`/`false` (also `1`/`0`); unset gives undefined, for a default that depends on other variables. */
  flag: () =>
    optionalVar(z.enum(['true', 'false', '1', '0'])).transform((v) =>
      v === undefined ? undefined : v === 'true' || v === '1',
    ),
} as const;

/** LOG_LEVEL, HOST and PORT_BASE, read alike by every service: spread first into an app's `z.object({ … })`. */
export function serviceEnvVars() {
  return { LOG_LEVEL: envVar.logLevel(), HOST: envVar.host(), PORT_BASE: envVar.portBase() };
}

type PortVarOf<S extends Service> = (typeof SERVICES)[S]['portVar'];
type UrlVarOf<S extends Service> = Extract<(typeof SERVICES)[S]['urlVar'], string>;
type ServicePortVars<S extends Service> = { [K in PortVarOf<S>]: ReturnType<typeof envVar.servicePort> } & {
  [K in UrlVarOf<S>]: ReturnType<typeof envVar.url>;
};

/**
 * Each service's `*_PORT` then `*_URL` (service-ports.ts), in the order given (which is the order of their problems
 * in a ConfigError): what resolvePort / resolveUrl read.
 */
export function servicePortVars<S extends Service>(...services: S[]): ServicePortVars<S> {
  const vars: Record<string, z.ZodType> = {};
  for (const service of services) {
    const { portVar, urlVar } = SERVICES[service];
    vars[portVar] = envVar.servicePort();
    if (urlVar !== null) vars[urlVar] = envVar.url();
  }
  return vars as ServicePortVars<S>;
}

/** DATABASE_URL, DATA_DIR, REDIS_URL and TRUST_PROXY, in that order: a stateful service's storage and proxy. */
export function storageEnvVars() {
  return {
    DATABASE_URL: envVar.databaseUrl(),
    DATA_DIR: envVar.dataDir(),
    REDIS_URL: envVar.redisUrl(),
    TRUST_PROXY: envVar.trustProxy(),
  };
}

/**
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS, the same in every app that sets or dials operators' webhook URLs: given, it wins;
 * unset, private and loopback targets are allowed unless NODE_ENV=production (`npm start`'s demo receiver is on
 * localhost). See outbound-address.ts.
 */
export function allowPrivateNetworks(given: boolean | undefined, env: Env): boolean {
  return given ?? !isProduction(env);
}
