/**
 * The operator portal composed in-process for a Chromium suite: its built UI (dist/browser/portal-ui), a fresh test
 * database and a private DATA_DIR, listening on 127.0.0.1 on a port the OS picks. The widget, embed and quote URLs
 * are on three more such ports (nothing listens there: the portal only prints them into snippets).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { composePortal, loadPortalConfig, type Portal } from '@expedition/app-operator-portal';
import type { Database } from '@expedition/db';
import { createTestDatabase } from '@expedition/db/testing';
import { workspaceRoot } from './widget-stub-frame';
import { freePorts } from '@expedition/platform/testing';

export interface RunningPortal {
  url: string;
  db: Database;
  portal: Portal;
  close(): Promise<void>;
}

/**
 * The UI bundle is built only when missing (running one file alone on a fresh checkout): the e2e target depends on
 * the bundle targets, and rebuilding while other suites of the run serve it would empty the folder under them.
 */
export function ensurePortalUiBundle(): string {
  const dir = path.join(workspaceRoot, 'dist/browser/portal-ui');
  if (!existsSync(path.join(dir, 'manifest.json'))) {
    const built = spawnSync(
      process.execPath,
      [require.resolve('rollup/dist/bin/rollup'), '-c', 'apps/operator-portal/ui/rollup.config.mjs'],
      { cwd: workspaceRoot, encoding: 'utf8' },
    );
    if (built.status !== 0) throw new Error(`portal-ui bundle failed:\n${built.stderr}`);
  }
  return dir;
}

export async function startPortal(name: string): Promise<RunningPortal> {
  const ports = await freePorts(4);
  const port = ports[0]!;
  const url = `http://127.0.0.1:${port}`;
  const uiDir = ensurePortalUiBundle();
  const db = await createTestDatabase();
  const config = loadPortalConfig({
    PORTAL_PORT: String(port),
    PORTAL_URL: url,
    WIDGET_URL: `http://127.0.0.1:${ports[1]}`,
    EMBED_URL: `http://127.0.0.1:${ports[2]}`,
    QUOTE_API_URL: `http://127.0.0.1:${ports[3]}`,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), `${name}-`)),
    PORTAL_UI_DIR: uiDir,
  });
  const portal = composePortal({ config, db, logger: pino({ level: 'silent' }) });
  const server = await new Promise<Server>((resolve) => {
    const s = portal.app.listen(port, '127.0.0.1', () => resolve(s));
  });
  return {
    url,
    db,
    portal,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await db.close();
    },
  };
}
