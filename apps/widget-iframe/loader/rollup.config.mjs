// The widget loader: one minified IIFE at dist/browser/widget-loader/widget.js (≤ 3 KB gzipped, test/bundle.spec.ts).
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
config.plugins = config.plugins.map((plugin) =>
  plugin.name === 'terser'
    ? terser({
        ecma: 2020,
        compress: { passes: 3, unsafe_arrows: true },
        // The loader's private bookkeeping fields (src/loader.ts Instance and Subscription), never public names.
        mangle: { properties: { regex: /^(greeted|failed|destroyed|timers|container|iframe|owner|fn|handle)$/ } },
        format: { comments: false },
      })
    : plugin,
);
export default config;
