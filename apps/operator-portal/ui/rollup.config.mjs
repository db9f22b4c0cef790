// The portal SPA: one `app` entry (admin pages are a lazy chunk), CSS as hashed assets, dist/browser/portal-ui/manifest.json.
// The server links every manifest `css` entry in this order: tokens (libs/ui), components (libs/ui), app.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { browserApp, browserDist, workspaceRoot } from '../../../tools/browser/rollup-preset.mjs';

const here = path.join(workspaceRoot, 'apps/operator-portal/ui');
const config = browserApp({
  name: 'portal-ui',
  input: { app: path.join(here, 'src/main.tsx') },
  css: {
    tokens: path.join(workspaceRoot, 'libs/ui/src/tokens.css'),
    components: path.join(workspaceRoot, 'libs/ui/src/components.css'),
    app: path.join(here, 'src/app.css'),
  },
  tsconfig: path.join(here, 'tsconfig.json'),
});

// Hashed names change with every edit: start from an empty folder so old bundles do not pile up next to the manifest.
const clean = {
  name: 'portal-ui-clean',
  buildStart: () => rmSync(browserDist('portal-ui'), { recursive: true, force: true }),
};

export default { ...config, plugins: [clean, ...config.plugins] };
