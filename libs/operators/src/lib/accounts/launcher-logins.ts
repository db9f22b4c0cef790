import path from 'node:path';
import { demoOperatorFilePath, type DemoOperatorInfo } from '../demo-operator';
import { readJson, writePrivateJson } from '../private-json';
import { generatePassword } from './passwords';
import type { ProvisioningService } from './provisioning.service';

export const PROVIDER_ADMIN_FILE = 'provider-admin.json';
export const DEFAULT_PROVIDER_ADMIN_EMAIL = 'admin@expedition.localhost';
export const DEMO_PORTAL_EMAIL = 'owner@polar-horizons.localhost';

export interface ProviderAdminLogin {
  email: string;
  /** null when the password is not known here (created by the CLI, or changed in the portal since). */
  password: string | null;
  /** true when this call created the admin. */
  created: boolean;
  file: string;
}

export function providerAdminFilePath(dataDir: string): string {
  return path.join(path.resolve(dataDir), PROVIDER_ADMIN_FILE);
}

/**
 * The embedded launcher's first provider admin. When no provider admin exists, creates one with a generated password
 * and keeps the log-in in DATA_DIR/provider-admin.json (mode 0600) so every start can print it. An admin made by the
 * CLI, or whose password was changed in the portal, is reported with `password: null` (never reset).
 */
export async function ensureProviderAdmin(options: {
  accounts: ProvisioningService;
  dataDir: string;
  email?: string;
}): Promise<ProviderAdminLogin> {
  const file = providerAdminFilePath(options.dataDir);
  const stored = readJson<{ email?: unknown; password?: unknown }>(file);
  const admins = await options.accounts.listProviderAdmins();
  const [firstAdmin] = admins;
  if (firstAdmin) {
    const fromFile = typeof stored?.email === 'string' ? admins.find((a) => a.email === stored.email) : undefined;
    if (fromFile && typeof stored?.password === 'string') {
      const valid = await options.accounts.checkPassword(fromFile.id, stored.password);
      return { email: fromFile.email, password: valid ? stored.password : null, created: false, file };
    }
    return { email: firstAdmin.email, password: null, created: false, file };
  }
  const created = await options.accounts.createProviderAdmin(options.email ?? DEFAULT_PROVIDER_ADMIN_EMAIL);
  writePrivateJson(file, { email: created.user.email, password: created.password });
  return { email: created.user.email, password: created.password, created: true, file };
}

/**
 * Gives the demo operator (from DATA_DIR/demo-operator.json, written by ensureDemoOperator) a verified portal owner and
 * writes `portalEmail` / `portalPassword` into the file. The file is the demo's log-in: a start restores that password.
 */
export async function ensureDemoPortalOwner(options: {
  accounts: ProvisioningService;
  dataDir: string;
}): Promise<DemoOperatorInfo> {
  const file = demoOperatorFilePath(options.dataDir);
  const info = readJson<DemoOperatorInfo>(file);
  if (!info || typeof info.operatorId !== 'string') throw new Error(`${file} is missing: run ensureDemoOperator first`);
  const email = typeof info.portalEmail === 'string' && info.portalEmail ? info.portalEmail : DEMO_PORTAL_EMAIL;
  const password =
    typeof info.portalPassword === 'string' && info.portalPassword ? info.portalPassword : generatePassword();
  await options.accounts.ensureOwner(info.operatorId, email, password, 'Demo owner');
  const updated = {
    ...info,
    operatorId: info.operatorId,
    portalEmail: email,
    portalPassword: password,
  } as DemoOperatorInfo;
  writePrivateJson(file, updated);
  return updated;
}
