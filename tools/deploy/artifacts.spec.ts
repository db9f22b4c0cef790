import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { APPS, buildScripts, distDir, ROOT } from './src/app-artifacts';
import { lintDockerfile } from './src/dockerfile-lint';
const { renderDockerfile, pruneLockfile } = buildScripts();

/**
 * Issue 12 §1: what `nx build <app>` leaves in dist/apps/<app> (this project's test target depends on the five
 * builds). The run of each artifact from an empty folder is run-built.spec.ts.
 */
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const rootLock = readJson(path.join(ROOT, 'package-lock.json'));
/** The `external` option of `<app>:build-server`: project.json's, else nx.json's target default. */
const externalsOf = (app: string): string[] =>
  readJson(path.join(ROOT, 'apps', app, 'project.json')).targets['build-server']?.options?.external ??
  readJson(path.join(ROOT, 'nx.json')).targetDefaults['build-server'].options.external;
const migrations = readdirSync(path.join(ROOT, 'libs', 'db', 'prisma', 'migrations'))
  .filter((n) => /^\d/.test(n))
  .sort();

describe.each(APPS.map((a) => a.app))('dist/apps/%s', (app) => {
  const dir = distDir(app);
  const file = (name: string) => path.join(dir, name);

  it('was built (nx build)', () => {
    expect(existsSync(file('package.json'))).toBe(true);
  });

  it('holds the bundle, its source map, migrate.js and every migration', () => {
    for (const name of ['main.js', 'main.js.map', 'migrate.js', 'Dockerfile', 'package-lock.json', '.npmrc']) {
      expect([name, existsSync(file(name))]).toEqual([name, true]);
    }
    const shipped = readdirSync(file('migrations'))
      .filter((n) => /^\d/.test(n))
      .sort();
    expect(shipped).toEqual(migrations);
  });

  it('package.json: private, starts main.js, depends ONLY on the externals, at the root lockfile versions', () => {
    const manifest = readJson(file('package.json'));
    expect(manifest).toMatchObject({
      name: `@expedition/${app}`,
      private: true,
      main: 'main.js',
      scripts: { start: expect.stringMatching(/^node .*main\.js$/) },
    });
    expect(manifest.devDependencies).toBeUndefined();
    const deps = Object.entries(manifest.dependencies as Record<string, string>);
    expect(deps.length).toBeGreaterThan(0);
    for (const [name, version] of deps) {
      expect(externalsOf(app)).toContain(name);
      expect([name, version]).toEqual([name, rootLock.packages[`node_modules/${name}`].version]);
    }
  });

  it('package-lock.json: the root lockfile pruned to those dependencies (reproducible, nothing resolved anew)', () => {
    const manifest = readJson(file('package.json'));
    const lock = readJson(file('package-lock.json'));
    expect(lock).toEqual(pruneLockfile(rootLock, Object.keys(manifest.dependencies), manifest));
    for (const [at, entry] of Object.entries(
      lock.packages as Record<string, { version: string; integrity?: string }>,
    )) {
      if (at === '') continue;
      expect([at, entry.version]).toEqual([at, rootLock.packages[at].version]);
      expect(entry.integrity).toBe(rootLock.packages[at].integrity);
    }
  });

  it('Dockerfile passes the image rules', () => {
    expect(lintDockerfile(readFileSync(file('Dockerfile'), 'utf8'))).toEqual([]);
  });
});

describe('what the browser-serving apps serve is inside their artifact', () => {
  it('widget-iframe: the loader, the iframe assets and the pinned releases', () => {
    const dir = distDir('widget-iframe');
    expect(existsSync(path.join(dir, 'browser', 'widget-loader', 'widget.js'))).toBe(true);
    expect(existsSync(path.join(dir, 'browser', 'widget-frame', 'manifest.json'))).toBe(true);
    expect(existsSync(path.join(dir, 'releases', 'manifest.json'))).toBe(true);
  });

  it('quote-api: the stdio MCP server is the package bin `expedition-mcp`, runnable as a command', () => {
    const dir = distDir('quote-api');
    expect(readJson(path.join(dir, 'package.json')).bin).toEqual({ 'expedition-mcp': 'mcp.js' });
    expect(readFileSync(path.join(dir, 'mcp.js'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('operator-portal: the portal UI', () => {
    expect(existsSync(path.join(distDir('operator-portal'), 'portal-ui', 'manifest.json'))).toBe(true);
  });
});

describe('lintDockerfile', () => {
  const good = renderDockerfile({ app: 'quote-api', portVar: 'QUOTE_API_PORT', port: 3001 });

  it('accepts the Dockerfile the build writes', () => {
    expect(lintDockerfile(good)).toEqual([]);
  });

  it.each([
    ['USER root', (t: string) => t.replace(/^USER .*$/m, 'USER root'), /USER: must not be root/],
    ['no USER', (t: string) => t.replace(/^USER .*$/m, ''), /USER: the image must not run as root/],
    ['a named user', (t: string) => t.replace(/^USER .*$/m, 'USER node'), /USER: numeric uid/],
    ['no HEALTHCHECK', (t: string) => t.replace(/^HEALTHCHECK[\s\S]*?\n\n/m, ''), /HEALTHCHECK/],
    [
      'a baked-in secret',
      (t: string) => t.replace(/^WORKDIR/m, 'ENV MPP_SECRET_KEY=abc\nWORKDIR'),
      /ENV\/ARG MPP_SECRET_KEY/,
    ],
    [
      'a DATABASE_URL default',
      (t: string) => t.replace(/^WORKDIR/m, 'ARG DATABASE_URL=postgres://x\nWORKDIR'),
      /ENV\/ARG DATABASE_URL/,
    ],
    ['another base image', (t: string) => t.replace(/^FROM .*$/m, 'FROM node:22'), /FROM/],
    ['npm install of everything', (t: string) => t.replace('npm ci --omit=dev', 'npm install'), /npm ci --omit=dev/],
    ['no NODE_ENV', (t: string) => t.replace('NODE_ENV=production', 'NODE_ENV=development'), /NODE_ENV=production/],
  ])('refuses %s', (_name, mutate, problem) => {
    const bad = mutate(good);
    expect(bad).not.toBe(good);
    expect(lintDockerfile(bad).join('\n')).toMatch(problem);
  });
});
