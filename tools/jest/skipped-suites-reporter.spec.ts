import { writeFileSync } from 'node:fs';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Reporter = require('./skipped-suites-reporter.cjs') as new () => {
  onRunComplete(c: unknown, r: unknown): Promise<void>;
};

const ROOT = path.resolve(__dirname, '..', '..');
const test = (ancestorTitles: string[], status: string) => ({ ancestorTitles, title: 't', status });

describe('skipped-suites reporter', () => {
  const saved = { ...process.env };
  let stderr: string;
  beforeEach(() => {
    stderr = '';
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
  });
  afterEach(() => {
    jest.restoreAllMocks();
    process.env = { ...saved };
  });

  it('prints one line per skipped suite with the reason its helper gave', async () => {
    const previousDir = process.env['EXPEDITION_SKIP_NOTES_DIR'];
    const reporter = new Reporter();
    const dir = process.env['EXPEDITION_SKIP_NOTES_DIR']!;
    expect(dir).not.toBe(previousDir);
    const crud = path.join(ROOT, 'libs/db/test/crud.spec.ts');
    writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ testPath: crud, reason: 'PostgreSQL unreachable at x' }));

    await reporter.onRunComplete([], {
      testResults: [
        {
          testFilePath: crud,
          testResults: [
            test(['CRUD on PGlite'], 'passed'),
            test(['CRUD on PostgreSQL'], 'pending'),
            test(['CRUD on PostgreSQL'], 'pending'),
          ],
        },
        { testFilePath: path.join(ROOT, 'libs/db/test/other.spec.ts'), testResults: [test(['other'], 'passed')] },
      ],
    });

    expect(stderr.trim().split('\n')).toEqual([
      'SKIPPED  libs/db/test/crud.spec.ts › CRUD on PostgreSQL (2 tests): PostgreSQL unreachable at x',
    ]);
  });

  it('still names a file whose every test was skipped without a reason, with the services that are down', async () => {
    process.env['TEST_REDIS_URL'] = 'redis://127.0.0.1:1';
    const reporter = new Reporter();
    await reporter.onRunComplete([], {
      testResults: [
        { testFilePath: path.join(ROOT, 'libs/x/src/a.redis.spec.ts'), testResults: [test(['with Redis'], 'pending')] },
      ],
    });
    expect(stderr).toMatch(
      /^SKIPPED {2}libs\/x\/src\/a\.redis\.spec\.ts › with Redis \(1 test\): every test skipped and the suite gave no reason \(test services here: .*redis=down redis:\/\/127\.0\.0\.1:1/m,
    );
  });

  it('prints nothing when nothing was skipped', async () => {
    const reporter = new Reporter();
    await reporter.onRunComplete([], {
      testResults: [{ testFilePath: path.join(ROOT, 'a.spec.ts'), testResults: [test(['a'], 'passed')] }],
    });
    expect(stderr).toBe('');
  });
});
