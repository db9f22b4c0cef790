import { z } from 'zod';
import {
  allowPrivateNetworks,
  asConfigError,
  ConfigError,
  envVar,
  isProduction,
  missingInProduction,
  parseConfig,
} from './env';

describe('parseConfig', () => {
  it('parses once and freezes the result', () => {
    const config = parseConfig(z.object({ PORT: envVar.port(3001) }), { PORT: '3009' });
    expect(config.PORT).toBe(3009);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names every bad variable in ONE line (printed without a stack trace)', () => {
    const schema = z.object({ PORT: envVar.port(3001), LOG_LEVEL: envVar.logLevel() });
    let error: unknown;
    try {
      parseConfig(schema, { PORT: 'x', LOG_LEVEL: 'loud' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { message, problems } = error as ConfigError;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^Invalid configuration: PORT: .+; LOG_LEVEL: /);
    expect(problems).toHaveLength(2);
  });
});

describe('envVar', () => {
  const schema = z.object({
    LOG_LEVEL: envVar.logLevel(),
    HOST: envVar.host(),
    PORT: envVar.port(3001),
    PUBLIC_URL: envVar.url(),
    DATA_DIR: envVar.dataDir(),
    DATABASE_URL: envVar.databaseUrl(),
    REDIS_URL: envVar.redisUrl(),
  });

  it('treats unset and blank alike and applies the defaults', () => {
    const expected = { LOG_LEVEL: 'info', HOST: '0.0.0.0', PORT: 3001, DATA_DIR: '.data' };
    expect(parseConfig(schema, {})).toEqual(expected);
    expect(parseConfig(schema, { LOG_LEVEL: ' ', PORT: '', DATABASE_URL: '', REDIS_URL: '' })).toEqual(expected);
  });

  it('accepts the usual forms', () => {
    const config = parseConfig(schema, {
      LOG_LEVEL: 'debug',
      PORT: '0',
      PUBLIC_URL: 'https://quotes.example.com',
      DATABASE_URL: 'postgres://u@db:5432/app',
      REDIS_URL: 'rediss://cache:6380',
    });
    expect(config).toMatchObject({ LOG_LEVEL: 'debug', PORT: 0, DATABASE_URL: 'postgres://u@db:5432/app' });
  });

  it.each([
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['LOG_LEVEL', 'verbose'],
    ['PUBLIC_URL', 'ftp://files.example.com'],
    ['DATABASE_URL', 'mysql://db/app'],
    ['REDIS_URL', 'localhost:6379'],
  ])('refuses %s=%s and names it', (name, value) => {
    expect(() => parseConfig(schema, { [name]: value })).toThrow(new RegExp(`Invalid configuration: ${name}: `));
  });
});

describe('envVar.trustProxy (Express trust proxy)', () => {
  const schema = z.object({ TRUST_PROXY: envVar.trustProxy() });

  it('reads a whole number as the count of proxies in front (Express would read the string "1" as the address 0.0.0.1)', () => {
    expect(parseConfig(schema, { TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(parseConfig(schema, { TRUST_PROXY: ' 2 ' }).TRUST_PROXY).toBe(2);
  });

  it('keeps addresses, subnets and names as given, and unset as unset', () => {
    expect(parseConfig(schema, { TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toBe('loopback, 10.0.0.0/8');
    expect(parseConfig(schema, {}).TRUST_PROXY).toBeUndefined();
  });

  it("refuses true, which would trust a client's own X-Forwarded-For", () => {
    expect(() => parseConfig(schema, { TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: use the number of proxies/);
  });
});

describe('production secrets and foreign config errors', () => {
  it('missingInProduction names each unset or blank variable, only with NODE_ENV=production', () => {
    const names = ['MPP_SECRET_KEY', 'WEBHOOK_SECRET_KEYS'];
    expect(missingInProduction({ MPP_SECRET_KEY: '' }, names)).toEqual([]);
    expect(missingInProduction({ NODE_ENV: 'development' }, names)).toEqual([]);
    expect(
      missingInProduction({ NODE_ENV: 'production', MPP_SECRET_KEY: ' ', WEBHOOK_SECRET_KEYS: 'k1:x' }, names),
    ).toEqual(['MPP_SECRET_KEY: required when NODE_ENV=production']);
    expect(isProduction({ NODE_ENV: ' production ' })).toBe(true);
  });

  it('allowPrivateNetworks: the given value wins; unset, false only with NODE_ENV=production', () => {
    expect(allowPrivateNetworks(undefined, { NODE_ENV: 'production' })).toBe(false);
    expect(allowPrivateNetworks(undefined, {})).toBe(true);
    expect(allowPrivateNetworks(undefined, { NODE_ENV: 'development' })).toBe(true);
    expect(allowPrivateNetworks(true, { NODE_ENV: 'production' })).toBe(true);
    expect(allowPrivateNetworks(false, {})).toBe(false);
  });

  it('asConfigError keeps problems and turns a multi-line message into ONE line', () => {
    const fromProblems = asConfigError(Object.assign(new Error('a\nb'), { problems: ['A: bad', 'B: missing'] }));
    expect(fromProblems.message).toBe('Invalid configuration: A: bad; B: missing');
    const fromMessage = asConfigError(new Error('X: one\nY: two\n'));
    expect(fromMessage.message).toBe('Invalid configuration: X: one; Y: two');
    const same = new ConfigError(['Z: z']);
    expect(asConfigError(same)).toBe(same);
    expect(new ConfigError(['P: line one\n  line two']).message).not.toContain('\n');
  });
});
