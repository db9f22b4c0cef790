/**
 * Public contracts change only with a CHANGELOG entry (docs/contract.md, Versioning 4–5).
 *
 * Each public contract is built from libs/contracts (prose — descriptions, summaries, examples — left out: rewording
 * is not a contract change), hashed, and compared with CHANGELOG.contracts.json, which records the hash and the
 * CHANGELOG.md entry that covers it. CI (`npm run contracts:check`, also a spec of the tools project) fails when a
 * contract changed without a record; `npm run contracts:record` records it, but only once CHANGELOG.md has a new
 * entry for that surface.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import * as contracts from '@expedition/contracts';
import { buildAcpOpenApi, buildPortalOpenApi, buildQuoteApiOpenApi } from '@expedition/contracts/openapi';
import { SVC_WIDGET_EVENT_NAMES } from '@expedition/contracts/widget-protocol';
import { listDestinations } from '@expedition/domain-pricing';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CHANGELOG_PATH = path.join(ROOT, 'CHANGELOG.md');
export const RECORD_PATH = path.join(ROOT, 'CHANGELOG.contracts.json');

export interface PublicContract {
  id: string;
  /** The CHANGELOG.md section (`## <surface>`) whose entries cover this contract. */
  surface: string;
  build(): unknown;
}

export interface ContractRecord {
  about?: string;
  contracts: Record<string, { surface: string; sha256: string; changelogEntry: string }>;
}

const jsonSchema = (schema: z.ZodType) => ({
  input: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
  output: z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }),
});

/** Every export of contracts whose name matches, so a new embed schema or message is covered without editing this. */
function exportsMatching(pattern: RegExp): Record<string, unknown> {
  return Object.fromEntries(Object.entries(contracts).filter(([name]) => pattern.test(name)));
}

// The catalog feeds only the document's prose (the agent rules), which the hash leaves out.
const OPENAPI_OPTIONS = { serverUrl: undefined, catalog: { destinations: listDestinations() } };

export const PUBLIC_CONTRACTS: PublicContract[] = [
  {
    id: 'api-v1-openapi',
    surface: 'Quoting API (/api/v1)',
    build: () => buildQuoteApiOpenApi(OPENAPI_OPTIONS),
  },
  {
    id: 'widget-events',
    surface: 'Loader and widget events',
    build: () => ({
      names: contracts.WIDGET_EVENT_NAMES,
      handlerNames: SVC_WIDGET_EVENT_NAMES,
      mountConfig: jsonSchema(contracts.MountConfigSchema),
      messagePrefix: contracts.WIDGET_MESSAGE_PREFIX,
      payloads: Object.fromEntries(
        Object.entries(contracts.WIDGET_EVENT_SCHEMAS).map(([name, schema]) => [name, jsonSchema(schema)]),
      ),
    }),
  },
  {
    id: 'embed-http-api',
    surface: 'Embed HTTP API (/api/embed)',
    build: () => ({
      schemas: Object.fromEntries(
        Object.entries(exportsMatching(/^Embed\w*Schema$/)).map(([name, schema]) => [
          name,
          jsonSchema(schema as z.ZodType),
        ]),
      ),
      messages: exportsMatching(/^EMBED_[A-Z_]+$/),
    }),
  },
  {
    id: 'policy-issued-webhook',
    surface: 'policy.issued webhook',
    build: () => ({
      body: jsonSchema(contracts.PolicyIssuedPayloadSchema),
      signatureHeader: contracts.WEBHOOK_SIGNATURE_HEADER,
      maxAttempts: contracts.WEBHOOK_MAX_ATTEMPTS,
    }),
  },
  {
    id: 'acp-openapi',
    surface: 'Agentic Commerce Protocol (/acp/v1)',
    build: () => buildAcpOpenApi(),
  },
  {
    id: 'portal-api-openapi',
    surface: 'Operator portal API',
    build: () => buildPortalOpenApi(),
  },
];

const PROSE = new Set(['description', 'summary', 'example', 'examples']);

/** Keys sorted, prose dropped: the same contract always gives the same bytes. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .filter((key) => !PROSE.has(key))
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

export function contractHash(contract: PublicContract): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(contract.build())))
    .digest('hex');
}

/** The entries (`### …` headings) of one `## <surface>` section of the changelog, newest first. */
export function changelogEntries(changelog: string, surface: string): string[] {
  const entries: string[] = [];
  let inSection = false;
  for (const line of changelog.split('\n')) {
    if (line.startsWith('## ')) inSection = line.slice(3).trim() === surface;
    else if (inSection && line.startsWith('### ')) entries.push(line.slice(4).trim());
  }
  return entries;
}

const RECORD_COMMAND = 'npm run contracts:record';

export interface Inputs {
  contracts?: PublicContract[];
  record: ContractRecord;
  changelog: string;
}

/** What is wrong, one sentence each; empty when every contract is recorded with an entry of CHANGELOG.md. */
export function checkContracts({ contracts: list = PUBLIC_CONTRACTS, record, changelog }: Inputs): string[] {
  const problems: string[] = [];
  for (const contract of list) {
    const recorded = record.contracts[contract.id];
    const hash = contractHash(contract);
    const section = `"## ${contract.surface}" of CHANGELOG.md`;
    if (!recorded) {
      problems.push(
        `${contract.id}: not recorded. Add its first entry under ${section}, then run \`${RECORD_COMMAND}\`.`,
      );
    } else if (recorded.sha256 !== hash) {
      problems.push(
        `${contract.id}: the public contract changed (sha256 ${hash.slice(0, 12)}…, recorded ${recorded.sha256.slice(0, 12)}… ` +
          `for "${recorded.changelogEntry}"). Add an entry under ${section} saying what changed (an additive change is ` +
          `listed; a breaking one follows the deprecation process written there), then run \`${RECORD_COMMAND}\`.`,
      );
    } else if (!changelogEntries(changelog, contract.surface).includes(recorded.changelogEntry)) {
      problems.push(`${contract.id}: its recorded entry "${recorded.changelogEntry}" is not under ${section}.`);
    }
  }
  const known = new Set(list.map((contract) => contract.id));
  for (const id of Object.keys(record.contracts)) {
    if (!known.has(id)) problems.push(`${id}: recorded in CHANGELOG.contracts.json but no longer a public contract.`);
  }
  return problems;
}

/**
 * The record after this change: a changed contract is recorded with the newest entry of its section, which must be a
 * new one (the entry that covered the previous contract cannot cover this change).
 */
export function recordContracts({ contracts: list = PUBLIC_CONTRACTS, record, changelog }: Inputs) {
  const problems: string[] = [];
  const next: ContractRecord = { about: record.about, contracts: {} };
  for (const contract of list) {
    const recorded = record.contracts[contract.id];
    const hash = contractHash(contract);
    const [newest] = changelogEntries(changelog, contract.surface);
    if (recorded?.sha256 === hash) {
      next.contracts[contract.id] = recorded;
    } else if (!newest) {
      problems.push(`${contract.id}: CHANGELOG.md has no entry under "## ${contract.surface}"; add one first.`);
    } else if (recorded && recorded.changelogEntry === newest) {
      problems.push(
        `${contract.id}: changed, but the newest entry under "## ${contract.surface}" is still "${newest}", which ` +
          'covers the previous contract. Add an entry for this change first.',
      );
    } else {
      next.contracts[contract.id] = { surface: contract.surface, sha256: hash, changelogEntry: newest };
    }
  }
  return { record: next, problems };
}

function main(command: string | undefined): number {
  const record = JSON.parse(readFileSync(RECORD_PATH, 'utf8')) as ContractRecord;
  const changelog = readFileSync(CHANGELOG_PATH, 'utf8');
  if (command === 'check') {
    const problems = checkContracts({ record, changelog });
    for (const problem of problems) console.error(`contracts: ${problem}`);
    if (!problems.length)
      console.log(`contracts: ${PUBLIC_CONTRACTS.length} public contracts match CHANGELOG.contracts.json`);
    return problems.length ? 1 : 0;
  }
  if (command === 'record') {
    const result = recordContracts({ record, changelog });
    for (const problem of result.problems) console.error(`contracts: ${problem}`);
    if (result.problems.length) return 1;
    writeFileSync(RECORD_PATH, `${JSON.stringify(result.record, null, 2)}\n`);
    for (const [id, entry] of Object.entries(result.record.contracts)) {
      console.log(`contracts: ${id} ${entry.sha256.slice(0, 12)}… covered by "${entry.changelogEntry}"`);
    }
    return 0;
  }
  console.error('usage: contract-snapshots.ts check | record');
  return 2;
}

if (require.main === module) process.exit(main(process.argv[2]));
