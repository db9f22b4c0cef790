/**
 * `npm run openapi:lint`: the three public OpenAPI documents (quote-api `/api/v1/openapi.json`, ACP
 * `/acp/v1/openapi.json`, the operator portal's `/api/portal/v1/openapi.json`), built from libs/contracts exactly as the
 * apps serve them, written to a temporary directory and linted by Redocly's CLI with the repository's
 * `redocly.yaml` (its `recommended` rules; any rule turned off there says why). Exits 1 on any problem, warnings too.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAcpOpenApi, buildPortalOpenApi, buildQuoteApiOpenApi } from '@expedition/contracts/openapi';
import { listDestinations } from '@expedition/domain-pricing';

const ROOT = path.resolve(__dirname, '..', '..');

/** The documents as served (an absolute server URL, as the apps give them). */
export function publicOpenApiDocuments(): Record<string, unknown> {
  const quoteApiUrl = 'https://quote.example-insurer.com';
  return {
    'quote-api': buildQuoteApiOpenApi({ serverUrl: quoteApiUrl, catalog: { destinations: listDestinations() } }),
    acp: buildAcpOpenApi({ serverUrl: quoteApiUrl }),
    portal: buildPortalOpenApi({ serverUrl: 'https://portal.example-insurer.com' }),
  };
}

interface RedoclyReport {
  problems: {
    ruleId: string;
    severity: string;
    message: string;
    location: { source: { ref: string }; pointer: string }[];
  }[];
}

/** Lints one document file: one line per problem (warnings count too); none is the bar. */
export function lintOpenApiFile(file: string): string[] {
  // One run per document: with several, `--format json` prints one report after another.
  const result = spawnSync(
    path.join(ROOT, 'node_modules', '.bin', 'redocly'),
    ['lint', '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json', '--max-problems', '1000', file],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  let report: RedoclyReport;
  try {
    report = JSON.parse(result.stdout) as RedoclyReport;
  } catch {
    return [`${path.basename(file)}: redocly gave no report (exit ${result.status}): ${result.stderr}`];
  }
  return report.problems.map(
    (problem) =>
      `${path.basename(file)} ${problem.location[0]?.pointer ?? ''}: ${problem.severity} ${problem.ruleId}: ${problem.message}`,
  );
}

/** Writes the documents to a temporary directory and lints each: the problems, per document name. */
export function lintPublicOpenApiDocuments(): Record<string, string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  try {
    return Object.fromEntries(
      Object.entries(publicOpenApiDocuments()).map(([name, document]) => {
        const file = path.join(dir, `${name}.openapi.json`);
        writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
        return [name, lintOpenApiFile(file)];
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main(): void {
  const results = Object.values(lintPublicOpenApiDocuments());
  const problems = results.flat();
  for (const line of problems) console.log(line);
  console.log(`openapi:lint: ${results.length} documents, ${problems.length} problems`);
  if (problems.length > 0) process.exitCode = 1;
}

if (require.main === module) main();
