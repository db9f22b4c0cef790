/**
 * One way to bundle browser code (the widget loader, the widget's iframe UI, the portal UI): rollup + esbuild
 * (TypeScript, JSX for Preact) + terser. Output goes to `dist/browser/<name>/`.
 *
 * - `browserApp`: ES modules with content-hashed file names (served immutable), CSS files emitted as hashed assets,
 *   and a `manifest.json` ({ entries: {name: file}, css: {name: file}, files: {file: {bytes}} }) the server reads to
 *   write its HTML. No inline script or style is ever needed (strict CSP).
 * - `browserScript`: one classic script (IIFE), not hashed (the loader: its URL is the contract).
 *
 * Both write, next to every .js and .css file, its brotli (`<file>.br`) and gzip (`<file>.gz`) twins (`precompressed`):
 * compressed once here, at the highest settings, so servers send them as they are (Content-Encoding) and never
 * compress per request. The manifest lists only the files themselves; a twin is found by its name.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';

export const workspaceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const browserDist = (name) => path.join(workspaceRoot, 'dist', 'browser', name);

/** `@expedition/*` imports resolve through tsconfig.base.json's paths, exactly as TypeScript sees them. */
function workspaceAliases() {
  const { compilerOptions } = JSON.parse(readFileSync(path.join(workspaceRoot, 'tsconfig.base.json'), 'utf8'));
  const aliases = new Map(
    Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, path.join(workspaceRoot, target)]),
  );
  return {
    name: 'expedition-workspace-aliases',
    resolveId(source) {
      return aliases.get(source) ?? null;
    },
  };
}

const compile = (tsconfig) =>
  esbuild({
    target: 'es2020',
    tsconfig,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: false,
    define: { 'process.env.NODE_ENV': '"production"' },
  });

/** Emits each CSS file as `<name>-<hash>.css` and writes manifest.json after the bundle. */
function assetsAndManifest(css) {
  const cssFiles = {};
  return {
    name: 'expedition-assets-manifest',
    buildStart() {
      for (const [name, file] of Object.entries(css)) {
        this.addWatchFile(file);
        const source = readFileSync(file);
        const hash = createHash('sha256').update(source).digest('hex').slice(0, 10);
        const fileName = `${name}-${hash}.css`;
        this.emitFile({ type: 'asset', fileName, source });
        cssFiles[name] = fileName;
      }
    },
    generateBundle(_options, bundle) {
      const entries = {};
      const files = {};
      for (const [fileName, item] of Object.entries(bundle)) {
        if (item.type === 'chunk' && item.isEntry) entries[item.name] = fileName;
        const bytes = item.type === 'chunk' ? Buffer.byteLength(item.code) : Buffer.from(item.source).length;
        files[fileName] = { bytes };
      }
      this.emitFile({
        type: 'asset',
        fileName: 'manifest.json',
        source: JSON.stringify({ entries, css: cssFiles, files }, null, 2),
      });
    },
  };
}

/**
 * Emits `<file>.br` (brotli quality 11, text mode) and `<file>.gz` (gzip level 9) beside every .js and .css output.
 * Runs last, on the final bytes (after terser), and the servers check that a twin decodes to its file before use.
 */
export function precompressed() {
  return {
    name: 'expedition-precompressed',
    generateBundle(_options, bundle) {
      for (const [fileName, item] of Object.entries(bundle)) {
        if (!/\.(?:js|css)$/.test(fileName)) continue;
        const bytes = item.type === 'chunk' ? Buffer.from(item.code) : Buffer.from(item.source);
        const br = brotliCompressSync(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        });
        this.emitFile({ type: 'asset', fileName: `${fileName}.br`, source: br });
        this.emitFile({ type: 'asset', fileName: `${fileName}.gz`, source: gzipSync(bytes, { level: 9 }) });
      }
    },
  };
}

/**
 * @param {{ name: string, input: Record<string, string>, css?: Record<string, string>, tsconfig: string }} options
 */
export function browserApp({ name, input, css = {}, tsconfig }) {
  return {
    input,
    plugins: [
      workspaceAliases(),
      nodeResolve({ browser: true, extensions: ['.ts', '.tsx', '.mjs', '.js'] }),
      compile(tsconfig),
      terser({ format: { comments: false } }),
      assetsAndManifest(css),
      precompressed(),
    ],
    output: {
      dir: browserDist(name),
      format: 'es',
      entryFileNames: '[name]-[hash].js',
      chunkFileNames: '[name]-[hash].js',
      assetFileNames: '[name]-[hash][extname]',
      sourcemap: false,
    },
  };
}

/**
 * @param {{ name: string, input: string, fileName: string, tsconfig: string }} options
 */
export function browserScript({ name, input, fileName, tsconfig }) {
  return {
    input,
    plugins: [
      workspaceAliases(),
      nodeResolve({ browser: true, extensions: ['.ts', '.mjs', '.js'] }),
      compile(tsconfig),
      terser({ format: { comments: false } }),
      precompressed(),
    ],
    output: { file: path.join(browserDist(name), fileName), format: 'iife', sourcemap: false },
  };
}
