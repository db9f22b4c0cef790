import { existsSync } from 'node:fs';
import { noteSkippedSuite } from '@expedition/platform/testing';

/**
 * Chromium for the browser suites: `/usr/bin/chromium` (or CHROMIUM_PATH). Missing, a suite is skipped and noted, or
 * fails with REQUIRE_SERVICES=1 (CI).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.REQUIRE_SERVICES === '1') {
  throw new Error(`Chromium not found at ${CHROMIUM} (REQUIRE_SERVICES=1): apt-get install chromium`);
}
if (!available)
  noteSkippedSuite(`Chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);

export const describeWithChromium: jest.Describe = available ? describe : describe.skip;
