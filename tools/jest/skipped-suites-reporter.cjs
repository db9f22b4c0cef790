// Jest reporter (jest.preset.js): no suite is skipped silently. After a run it prints one line per skipped suite,
//   SKIPPED  libs/db/test/crud.spec.ts › CRUD on PostgreSQL (9 tests): PostgreSQL unreachable at … (set TEST_DATABASE_URL)
// The reason comes from the helper that chose to skip (`noteSkippedSuite` in @expedition/platform/testing writes a note into
// EXPEDITION_SKIP_NOTES_DIR, which this reporter creates for the run); a file whose every test was skipped without a
// note still gets a line, with the test services that are down on this machine.
const { mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { describeServices, probeServices } = require('../scripts/test-services.cjs');

const ROOT = path.resolve(__dirname, '..', '..');

class SkippedSuitesReporter {
  constructor() {
    // Set before jest starts its workers, which inherit the environment.
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'expedition-skip-notes-'));
    process.env.EXPEDITION_SKIP_NOTES_DIR = this.dir;
  }

  readNotes() {
    const notes = new Map();
    for (const name of readdirSync(this.dir)) {
      try {
        const { testPath, reason } = JSON.parse(readFileSync(path.join(this.dir, name), 'utf8'));
        const reasons = notes.get(testPath) ?? new Set();
        reasons.add(reason);
        notes.set(testPath, reasons);
      } catch {
        // A note being written as the run ends: nothing to report from it.
      }
    }
    return notes;
  }

  async onRunComplete(_contexts, results) {
    const notes = this.readNotes();
    rmSync(this.dir, { recursive: true, force: true });
    const lines = [];
    let services;
    for (const file of results.testResults) {
      const pending = file.testResults.filter((test) => test.status === 'pending' || test.status === 'skipped');
      const reasons = notes.get(file.testFilePath);
      const everyTestSkipped = pending.length > 0 && pending.length === file.testResults.length;
      if (!reasons && !everyTestSkipped) continue;
      const suites = [...new Set(pending.map((test) => test.ancestorTitles[0] ?? test.title))];
      const what = `${path.relative(ROOT, file.testFilePath)}${suites.length ? ` › ${suites.join(', ')}` : ''}`;
      const count = pending.length === 1 ? '1 test' : `${pending.length} tests`;
      let why;
      if (reasons) why = [...reasons].join('; ');
      else {
        services ??= await probeServices();
        why = `every test skipped and the suite gave no reason (test services here: ${describeServices(services)})`;
      }
      lines.push(`SKIPPED  ${what} (${count}): ${why}`);
    }
    if (lines.length) process.stderr.write(`\n${lines.join('\n')}\n`);
  }
}

module.exports = SkippedSuitesReporter;
