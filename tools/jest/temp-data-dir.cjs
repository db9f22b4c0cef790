// Every test file gets its own DATA_DIR under the system's temporary folder unless it sets one: the embedded mode's
// files (PGlite, the simulated processor's secret, the outbox) of anything that reads process.env, or is spawned with
// it, land there and never in the working tree (README, Commands).
const { mkdtempSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

if (!process.env.DATA_DIR) process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'expedition-test-data-'));
