import { z } from 'zod';
import { normalizeOrigin } from '@expedition/auth-publishable-key';
import { deceptiveTextMessage, findDeceptiveCharacter, ModeSchema, type Mode } from '@expedition/contracts';
import { refusedHostname, type OutboundPolicy } from '@expedition/platform';
import { invalidInput } from './operator-error';

// Plain checks at the service edge: every public function validates what it is given before touching the database,
// so the CLI (and later the portal) can pass raw user input through.

export const OPERATOR_STATUSES = ['pending', 'active', 'suspended'] as const;
export type OperatorStatusValue = (typeof OPERATOR_STATUSES)[number];

export const MAX_COMMISSION_BPS = 10_000;
/** A rotation grace longer than this is a forgotten key, not a grace period. */
export const MAX_GRACE_SECONDS = 30 * 24 * 3600;
const MAX_NAME_LENGTH = 200;
const MAX_LABEL_LENGTH = 100;
const MAX_URL_LENGTH = 2048;
const MIN_SECRET_LENGTH = 16;
const MAX_SECRET_LENGTH = 256;
/** Hosts a plain-http webhook may target: a developer's own machine, never the network. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const EmailSchema = z.email();

export function requireName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '') throw invalidInput('name is required');
  // Shown to travelers ("Offered by …"): docs/security.md, Names that deceive.
  const deceptive = findDeceptiveCharacter(name);
  if (deceptive) throw invalidInput(`name ${deceptiveTextMessage(deceptive)}`);
  if (name.length > MAX_NAME_LENGTH) throw invalidInput(`name is longer than ${MAX_NAME_LENGTH} characters`);
  return name;
}

export function optionalEmail(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  const email = typeof value === 'string' ? value.trim() : value;
  if (!EmailSchema.safeParse(email).success)
    throw invalidInput(`contactEmail "${String(value)}" is not an email address`);
  return email as string;
}

export function optionalWebsite(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  const raw = typeof value === 'string' ? value.trim() : '';
  const url = raw.length <= MAX_URL_LENGTH ? parseUrl(raw) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw invalidInput(`websiteUrl "${String(value)}" is not an http(s) URL`);
  }
  return url.toString();
}

export function requireStatus(value: unknown): OperatorStatusValue {
  if (!OPERATOR_STATUSES.includes(value as OperatorStatusValue)) {
    throw invalidInput(`status must be one of ${OPERATOR_STATUSES.join(', ')} (got "${String(value)}")`);
  }
  return value as OperatorStatusValue;
}

export function requireMode(value: unknown): Mode {
  const parsed = ModeSchema.safeParse(value);
  if (!parsed.success) throw invalidInput(`mode must be "test" or "live" (got "${String(value)}")`);
  return parsed.data;
}

export function requireBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw invalidInput(`${field} must be true or false`);
  return value;
}

export function requireCommissionBps(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_COMMISSION_BPS) {
    throw invalidInput(`commissionRateBps must be an integer from 0 to ${MAX_COMMISSION_BPS} (got ${String(value)})`);
  }
  return value;
}

export function requireIntegrationTier(value: unknown): 1 | 2 | 3 {
  if (value !== 1 && value !== 2 && value !== 3)
    throw invalidInput(`integrationTier must be 1, 2 or 3 (got ${String(value)})`);
  return value;
}

export function optionalGraceSeconds(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_GRACE_SECONDS) {
    throw invalidInput(`graceSeconds must be an integer from 0 to ${MAX_GRACE_SECONDS} (got ${String(value)})`);
  }
  return value;
}

export function optionalLabel(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidInput('label must be a string');
  const label = value.trim();
  if (label.length > MAX_LABEL_LENGTH) throw invalidInput(`label is longer than ${MAX_LABEL_LENGTH} characters`);
  return label === '' ? null : label;
}

export function requireId(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalidInput(`${what} is required`);
  return value.trim();
}

/**
 * https anywhere; plain http only to a loopback host (the embedded demo site). The URL must not carry credentials or
 * a fragment: credentials in a URL end up in logs, and a fragment is never sent. A host that is plainly not on the
 * public internet (a private, loopback, link-local … IP literal in any spelling, `localhost`, the cloud metadata
 * names) is refused unless `policy` allows private networks (development). This is the first line only: a name is
 * judged on the address it resolves to when each webhook is sent (webhook-dispatcher, keep-alive-transport.ts).
 */
export function requireWebhookUrl(value: unknown, policy: OutboundPolicy): string {
  const raw = typeof value === 'string' ? value.trim() : '';
  if (raw === '') throw invalidInput('webhook url is required');
  const url = raw.length <= MAX_URL_LENGTH ? parseUrl(raw) : null;
  if (!url) throw invalidInput(`webhook url "${raw}" is not a valid URL`);
  if (url.username || url.password) throw invalidInput('webhook url must not contain credentials');
  if (url.hash) throw invalidInput('webhook url must not contain a fragment');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidInput(`webhook url must use https: "${raw}"`);
  const refused = refusedHostname(url.hostname, policy);
  if (refused) throw invalidInput(`webhook url must point to a public internet host, not ${refused}: "${raw}"`);
  if (url.protocol === 'https:') return url.toString();
  if (LOOPBACK_HOSTS.has(url.hostname)) return url.toString();
  throw invalidInput(`webhook url must use https (plain http only for localhost or 127.0.0.1): "${raw}"`);
}

export function optionalWebhookSecret(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !/^[\x21-\x7e]+$/.test(value)) {
    throw invalidInput('webhook secret must be printable ASCII without spaces');
  }
  if (value.length < MIN_SECRET_LENGTH || value.length > MAX_SECRET_LENGTH) {
    throw invalidInput(`webhook secret must be ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters long`);
  }
  return value;
}

export function requireOrigin(value: unknown): string {
  const origin = normalizeOrigin(value);
  if (origin === null) {
    throw invalidInput(
      `"${String(value)}" is not a valid origin: expected scheme://host[:port] with http or https ` +
        '(no path, query, fragment, credentials or wildcard), e.g. https://tours.example.com',
    );
  }
  return origin;
}

function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}
