import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  CHANGELOG_PATH,
  changelogEntries,
  checkContracts,
  contractHash,
  PUBLIC_CONTRACTS,
  RECORD_PATH,
  recordContracts,
  type ContractRecord,
  type PublicContract,
} from './contract-snapshots';

const changelog = readFileSync(CHANGELOG_PATH, 'utf8');
const record = JSON.parse(readFileSync(RECORD_PATH, 'utf8')) as ContractRecord;

describe('public contracts and the changelog', () => {
  it('every public contract matches CHANGELOG.contracts.json, recorded with an entry of CHANGELOG.md', () => {
    // On failure: add a CHANGELOG.md entry for the change, then `npm run contracts:record` (see CHANGELOG.md).
    expect(checkContracts({ record, changelog })).toEqual([]);
  });

  it('has a changelog section for every surface, the operator portal included', () => {
    const sections = changelog
      .split('\n')
      .filter((line) => line.startsWith('## '))
      .map((line) => line.slice(3));
    expect(sections).toEqual(
      expect.arrayContaining([...new Set(PUBLIC_CONTRACTS.map((c) => c.surface)), 'Operator portal API']),
    );
  });

  describe('a contract that changes', () => {
    const webhook = PUBLIC_CONTRACTS.find((c) => c.id === 'policy-issued-webhook')!;
    const changed: PublicContract = {
      ...webhook,
      build: () => ({ ...(webhook.build() as object), body: z.toJSONSchema(z.object({ eventId: z.number() })) }),
    };
    const contracts = PUBLIC_CONTRACTS.map((c) => (c.id === webhook.id ? changed : c));

    it('fails the check, naming the fix', () => {
      const problems = checkContracts({ contracts, record, changelog });
      expect(problems).toEqual([expect.stringContaining('policy-issued-webhook: the public contract changed')]);
      expect(problems[0]).toContain('"## policy.issued webhook" of CHANGELOG.md');
      expect(problems[0]).toContain('npm run contracts:record');
    });

    it('cannot be recorded under the entry that covered the previous contract', () => {
      // The section's newest entry covers the recorded contract (as right after `contracts:record`); a later entry
      // that changed no schema (behaviour only) must not make this test depend on the changelog's current order.
      const newest = changelogEntries(changelog, webhook.surface)[0]!;
      const coveredByNewest: ContractRecord = {
        ...record,
        contracts: { ...record.contracts, [webhook.id]: { ...record.contracts[webhook.id]!, changelogEntry: newest } },
      };
      const result = recordContracts({ contracts, record: coveredByNewest, changelog });
      expect(result.problems).toEqual([expect.stringContaining('Add an entry for this change first')]);
    });

    it('is recorded with the new newest entry of its section once there is one', () => {
      const withEntry = changelog.replace(
        '## policy.issued webhook\n',
        '## policy.issued webhook\n\n### 2099-01-01 — eventId becomes a number (Deprecation)\n',
      );
      const result = recordContracts({ contracts, record, changelog: withEntry });
      expect(result.problems).toEqual([]);
      expect(result.record.contracts[webhook.id]).toEqual({
        surface: webhook.surface,
        sha256: contractHash(changed),
        changelogEntry: '2099-01-01 — eventId becomes a number (Deprecation)',
      });
      expect(checkContracts({ contracts, record: result.record, changelog: withEntry })).toEqual([]);
    });
  });

  it('leaves prose out of the hash: rewording a description is not a contract change', () => {
    const api = PUBLIC_CONTRACTS.find((c) => c.id === 'api-v1-openapi')!;
    const reworded: PublicContract = {
      ...api,
      build: () => ({
        ...(api.build() as object),
        info: { ...(api.build() as { info: object }).info, description: 'other words' },
      }),
    };
    expect(contractHash(reworded)).toBe(contractHash(api));
  });

  it('reads the entries of one section, newest first', () => {
    expect(changelogEntries('## A\n### 2 — b\n### 1 — a\n## B\n### 3 — c\n', 'A')).toEqual(['2 — b', '1 — a']);
  });
});
