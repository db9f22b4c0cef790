// The widget loader: one minified IIFE at dist/browser/widget-loader/widget.js (≤ 2,867 B gzipped: test/bundle.spec.ts).
// The preset's terser runs with more passes here: every byte of this file is downloaded by every operator's visitor.
import path from 'node:path';
import terser from '@rollup/plugin-terser';
import { browserScript, workspaceRoot } from '../../../tools/browser/rollup-preset.mjs';

const root = path.join(workspaceRoot, 'apps/widget-iframe/loader');
const config = browserScript({
  name: 'widget-loader',
  input: path.join(root, 'src/widget.ts'),
  fileName: 'widget.js',
  tsconfig: path.join(root, 'tsconfig.json'),
});
/**
 * The origin this build is served from (WIDGET_LOADER_ORIGIN, e.g. https://widget.example.com), baked in for a loader
 * run without `document.currentScript`; unset, such a loader refuses to start (src/widget.ts, loaderOrigin).
 */
const builtFor = process.env.WIDGET_LOADER_ORIGIN ? new URL(process.env.WIDGET_LOADER_ORIGIN).origin : null;
const bakeOrigin = {
  name: 'svc-loader-origin',
  transform: (code) => code.replace(/(?<!declare const )__SVC_LOADER_ORIGIN__/g, JSON.stringify(builtFor)),
};
config.plugins = [bakeOrigin, ...config.plugins];
config.plugins = config.plugins.map((plugin) =>
  plugin.name === 'terser'
    ? terser({
        ecma: 2020,
        compress: { passes: 3, unsafe_arrows: true },
        // The loader's private fields end in `_` (src/loader.ts Instance and Subscription); no public name does.
        mangle: { properties: { regex: /_$/ } },
        format: { comments: false },
      })
    : plugin,
);
// No "use strict" prologue (9 bytes gzipped): the loader is TypeScript modules, compiled as strict code, and nothing
// in it behaves otherwise without the prologue (no `this`, `arguments`, `with`, octal literals, writes to undeclared
// names or to read-only properties).
config.output.strict = false;
export default config;
