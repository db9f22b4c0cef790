import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// The launcher's files under DATA_DIR (demo-operator.json, provider-admin.json) hold log-ins and secrets.

/** A JSON object from DATA_DIR, or null when the file is missing or not an object. */
export function readJson<T>(file: string): Partial<T> | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Partial<T>) : null;
  } catch {
    return null;
  }
}

/**
 * Writes DATA_DIR credentials readable by this user only (0600), beside the target and renamed, so a crash never
 * leaves a half-written file for the launcher to read.
 */
export function writePrivateJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  chmodSync(partial, 0o600);
  renameSync(partial, file);
}
