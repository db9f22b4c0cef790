import express from 'express';
import { ConfigError } from '@expedition/platform';
import { startService, type ServiceConfig, type ServiceDefinition, type ServiceDb } from './run-service';

/** A service as an app's main.ts defines one, with a stand-in database and every step written to `steps`. */
function probe(steps: string[], overrides: Partial<ServiceDefinition<ServiceConfig, ServiceDb>> = {}) {
  const definition: ServiceDefinition<ServiceConfig, ServiceDb> = {
    name: 'probe',
    loadConfig: () => ({ logLevel: 'silent', host: '127.0.0.1', port: 0 }),
    database: () => ({
      open: async () => {
        steps.push('database opened');
        return { kind: 'stand-in', close: async () => void steps.push('database closed') };
      },
      prepare: async () => {
        steps.push('database prepared');
        return { applied: [], plans: 0 };
      },
    }),
    compose: ({ db }) => {
      steps.push(`composed on the ${db.kind} database`);
      const app = express();
      app.get('/', (_req, res) => void res.json({ service: 'probe' }));
      return {
        app,
        start: () => void steps.push('workers started'),
        stop: async () => void steps.push('workers stopped'),
      };
    },
    ...overrides,
  };
  return definition;
}

describe('startService (the start every main.ts runs)', () => {
  it('opens and prepares the database, composes, listens, then starts the workers; stop() undoes it in order', async () => {
    const steps: string[] = [];
    const started = await startService(probe(steps), {});
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(started.metricsUrl).toBeUndefined();
    expect(await (await fetch(started.url)).json()).toEqual({ service: 'probe' });
    expect(steps).toEqual([
      'database opened',
      'database prepared',
      'composed on the stand-in database',
      'workers started',
    ]);

    await started.stop();
    expect(steps.slice(4)).toEqual(['workers stopped', 'database closed']);
    await expect(fetch(started.url)).rejects.toThrow();
  });

  it('an unreachable PostgreSQL ends the start with one line naming it, before anything is composed', async () => {
    const steps: string[] = [];
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const definition = probe(steps, {
      loadConfig: () => ({
        logLevel: 'silent',
        host: '127.0.0.1',
        port: 0,
        databaseUrl: 'postgresql://app:s3cret@127.0.0.1:1/expedition',
      }),
      database: () => ({
        open: () => Promise.reject(refused),
        prepare: async () => ({ applied: [], plans: 0 }),
      }),
    });
    await expect(startService(definition, {})).rejects.toThrow(
      /^Cannot reach PostgreSQL at 127\.0\.0\.1:1 \(DATABASE_URL\): connection refused\./,
    );
    expect(steps).toEqual([]);
  });

  it('a configuration error is thrown as it is, before any connection', async () => {
    const steps: string[] = [];
    const definition = probe(steps, {
      loadConfig: () => {
        throw new ConfigError(['PORT: expected a number']);
      },
    });
    await expect(startService(definition, {})).rejects.toBeInstanceOf(ConfigError);
    expect(steps).toEqual([]);
  });
});
