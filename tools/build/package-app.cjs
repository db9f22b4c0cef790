#!/usr/bin/env node
// Turns `dist/apps/<app>/` (esbuild's main.js + migrations, written by `<app>:build-server`) into a deployable
// artifact: a pruned package.json whose dependencies are ONLY the externals the bundle loads at run time (exact
// versions from the root package-lock.json), a package-lock.json derived from the root lockfile (no network, the
// same input gives the same bytes), an .npmrc, and a Dockerfile. Run by each app's `build` target:
//   node tools/build/package-app.cjs <app> [--copy <from>=<to>]…
// `--copy` copies browser bundles the app serves into the artifact (dist/ is git-ignored, so esbuild's asset copy
// skips it).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { builtinModules } = require('node:module');
const { renderDockerfile } = require('./dockerfile.cjs');

const root = path.resolve(__dirname, '..', '..');

/** The apps we ship: the variable that sets each one's port, and its default. */
const APPS = {
  'quote-api': { portVar: 'QUOTE_API_PORT', port: 3001 },
  'embed-api': { portVar: 'EMBED_API_PORT', port: 3002 },
  'widget-iframe': { portVar: 'WIDGET_PORT', port: 3003 },
  'operator-portal': { portVar: 'PORTAL_PORT', port: 3004 },
  'webhook-dispatcher': { portVar: 'DISPATCHER_PORT', port: 3005 },
};

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The `external` option of `<app>:build-server` (project.json, else nx.json's target default). */
function configuredExternals(app) {
  const project = readJson(path.join(root, 'apps', app, 'project.json'));
  const nx = readJson(path.join(root, 'nx.json'));
  return (
    project.targets?.['build-server']?.options?.external ?? nx.targetDefaults?.['build-server']?.options?.external ?? []
  );
}

/** Bare package names the bundle still `require`s or `import()`s (ignoring node built-ins and relative paths). */
function referencedPackages(bundle) {
  const names = new Set();
  for (const match of bundle.matchAll(/\b(?:require|import)\(\s*["']([^"'./][^"']*)["']\s*\)/g)) {
    const spec = match[1];
    if (spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0])) continue;
    const parts = spec.split('/');
    names.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return names;
}

/**
 * The part of the root lockfile that installing `names` needs: every package reachable through dependencies and
 * optionalDependencies, resolved the way Node and npm resolve them (nested node_modules first, then upwards), kept at
 * the same paths so the pruned tree resolves exactly as the root one. Peer dependencies are left to the .npmrc
 * (`legacy-peer-deps`): the bundle inlines them already.
 */
function pruneLockfile(rootLock, names, manifest) {
  const packages = rootLock.packages;
  const resolve = (fromPath, name) => {
    for (let dir = fromPath; ;) {
      const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (dir === '') return null;
      const cut = dir.lastIndexOf('/node_modules/');
      dir = cut < 0 ? '' : dir.slice(0, cut);
    }
  };
  const kept = new Map();
  const visit = (fromPath, name, optional) => {
    const at = resolve(fromPath, name);
    if (!at) {
      if (optional) return;
      throw new Error(`package-lock.json has no ${name} (needed from ${fromPath || 'the app'})`);
    }
    const seen = kept.get(at);
    if (seen !== undefined) {
      if (seen && !optional) kept.set(at, false);
      else return;
    } else kept.set(at, optional);
    const entry = packages[at];
    for (const dep of Object.keys(entry.dependencies ?? {})) visit(at, dep, optional);
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) visit(at, dep, true);
  };
  for (const name of names) visit('', name, false);

  const out = {
    '': {
      name: manifest.name,
      version: manifest.version,
      ...(manifest.engines ? { engines: manifest.engines } : {}),
      dependencies: manifest.dependencies,
    },
  };
  for (const at of [...kept.keys()].sort()) {
    const { dev, devOptional, optional, peer, ...entry } = packages[at];
    out[at] = kept.get(at) ? { ...entry, optional: true } : entry;
  }
  return { name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages: out };
}

function copyInto(outDir, spec) {
  const [from, to] = spec.split('=');
  const target = path.join(outDir, to);
  fs.rmSync(target, { recursive: true, force: true });
  if (!fs.existsSync(path.join(root, from))) throw new Error(`${from} is missing: build it first`);
  fs.cpSync(path.join(root, from), target, { recursive: true });
}

function main(argv) {
  const app = argv[0];
  const meta = APPS[app];
  if (!meta) throw new Error(`usage: package-app.cjs <${Object.keys(APPS).join('|')}> [--copy from=to]…`);
  const outDir = path.join(root, 'dist', 'apps', app);
  const bundlePath = path.join(outDir, 'main.js');
  if (!fs.existsSync(bundlePath))
    throw new Error(`${path.relative(root, bundlePath)} is missing: run ${app}:build-server`);
  for (let i = 1; i < argv.length; i += 2) {
    if (argv[i] !== '--copy' || !argv[i + 1]) throw new Error(`unexpected argument ${argv[i]}`);
    copyInto(outDir, argv[i + 1]);
  }

  // migrate.js: the release step (tools/build/migrate.ts), for the migration Job and `npm run migrate`.
  require('esbuild').buildSync({
    entryPoints: [path.join(__dirname, 'migrate.ts')],
    outfile: path.join(outDir, 'migrate.js'),
    tsconfig: path.join(root, 'tools', 'tsconfig.json'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    external: configuredExternals(app),
    logLevel: 'warning',
  });

  const rootManifest = readJson(path.join(root, 'package.json'));
  const rootLock = readJson(path.join(root, 'package-lock.json'));
  const referenced = referencedPackages(fs.readFileSync(bundlePath, 'utf8'));
  for (const extra of fs.readdirSync(outDir).filter((f) => /^[\w-]+\.js$/.test(f) && f !== 'main.js')) {
    for (const name of referencedPackages(fs.readFileSync(path.join(outDir, extra), 'utf8'))) referenced.add(name);
  }
  const dependencies = {};
  for (const name of [...configuredExternals(app)].sort()) {
    if (!referenced.has(name)) continue;
    const locked = rootLock.packages[`node_modules/${name}`];
    if (!locked) throw new Error(`${name} is external but not in package-lock.json`);
    dependencies[name] = locked.version;
  }

  const manifest = {
    name: `@expedition/${app}`,
    version: rootManifest.version,
    private: true,
    description: `${app}: the built bundle (node main.js); configured by environment variables only`,
    main: 'main.js',
    ...(rootManifest.engines ? { engines: rootManifest.engines } : {}),
    scripts: { start: 'node --enable-source-maps main.js', migrate: 'node migrate.js' },
    // quote-api's stdio MCP server (src/mcp.ts keeps its shebang through esbuild).
    ...(fs.existsSync(path.join(outDir, 'mcp.js')) ? { bin: { 'expedition-mcp': 'mcp.js' } } : {}),
    dependencies,
  };
  const write = (name, text) => fs.writeFileSync(path.join(outDir, name), text);
  write('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
  write(
    'package-lock.json',
    `${JSON.stringify(pruneLockfile(rootLock, Object.keys(dependencies), manifest), null, 2)}\n`,
  );
  // The bundle inlines the externals' peers (@prisma/client …); npm must not fetch them again.
  write('.npmrc', 'legacy-peer-deps=true\nfund=false\naudit=false\nupdate-notifier=false\n');
  write('Dockerfile', renderDockerfile({ app, ...meta }));
  write('.dockerignore', 'node_modules\n*.log\n');
  console.log(`${app}: dist/apps/${app} packaged (dependencies: ${Object.keys(dependencies).join(', ') || 'none'})`);
}

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    console.error(`package-app: ${err.message}`);
    process.exit(1);
  }
}

module.exports = { pruneLockfile, referencedPackages, APPS };
