/**
 * The widget's iframe UI and hosted Tier 1 page: ONE entry (`frame`) that reads the boot data's `kind`, the Tier 3
 * checkout as a lazy chunk, and one stylesheet (`frame`: libs/ui tokens.css + alert.css + this app's CSS, concatenated so the
 * document needs a single <link>). Output: dist/browser/widget-frame/ + manifest.json (the preset's format), read by
 * the widget-iframe server to write its HTML. The manifest also says which chunks each chunk imports statically
 * (`files[<chunk>].imports`): the server preloads them with the document, so the browser never waits for a module to
 * arrive before it learns of the next one.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { browserApp, browserDist, workspaceRoot } from '../../../tools/browser/rollup-preset.mjs';

const root = path.join(workspaceRoot, 'apps/widget-iframe/frame');
const css = path.join(workspaceRoot, 'tmp', 'widget-frame', 'frame.css');
mkdirSync(path.dirname(css), { recursive: true });
writeFileSync(
  css,
  [
    path.join(workspaceRoot, 'libs/ui/src/tokens.css'),
    path.join(workspaceRoot, 'libs/ui/src/alert.css'),
    path.join(root, 'src/frame.css'),
  ]
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n'),
);

const config = browserApp({
  name: 'widget-frame',
  input: { frame: path.join(root, 'src/main.tsx') },
  css: { frame: css },
  tsconfig: path.join(root, 'tsconfig.json'),
});

// Hashed names change with every edit: start from an empty folder so old bundles do not pile up next to the manifest.
const clean = {
  name: 'widget-frame-clean',
  buildStart: () => rmSync(browserDist('widget-frame'), { recursive: true, force: true }),
};
/**
 * Adds each chunk's static imports, as rollup resolved them, to the manifest the preset wrote (its generateBundle runs
 * before this one): `files["widget.de-<hash>.js"].imports = ["cardinals-<hash>.js"]`.
 */
const chunkImports = {
  name: 'widget-frame-chunk-imports',
  generateBundle(_options, bundle) {
    const asset = bundle['manifest.json'];
    if (asset?.type !== 'asset') throw new Error('widget-frame: the preset wrote no manifest.json');
    const manifest = JSON.parse(String(asset.source));
    for (const [fileName, item] of Object.entries(bundle)) {
      if (item.type === 'chunk' && item.imports.length > 0) manifest.files[fileName].imports = [...item.imports];
    }
    asset.source = JSON.stringify(manifest, null, 2);
  },
};
export default { ...config, plugins: [clean, ...config.plugins, chunkImports] };
