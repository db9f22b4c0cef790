import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Database } from '@expedition/db';
import { shortInput } from './report';
import { buildInput, requestArb } from './requests';
import type { RequestInput, RouteSpec, RouteStats } from './route-spec';
import { FUZZ_CONCURRENCY, FUZZ_RUNS, FUZZ_SEED } from './settings';
import { type RawResponse, send } from './transport';
import { IGNORED_WRITES, lastWrite, writesSince } from './write-log';

/**
 * The fuzz engine: a route table entry says how to build a request (valid bodies from the contract, the headers a
 * real client sends, path and query parameters) and what the route may answer; the engine generates FUZZ_RUNS inputs
 * per route with a fixed seed, sends them over a real HTTP socket and checks every answer:
 * - the status is one the route documents, and never a 5xx;
 * - the body carries no stack trace or source path;
 * - a JSON error body matches the app's error schema;
 * - a refused request (4xx) wrote nothing: the row counts of the tables the route writes are unchanged.
 * It collects every violation (not only the first) so one run lists all of a route's problems with their inputs.
 */

/**
 * Answers of Node's HTTP server itself: 431 for request headers (URL included) over 16 KiB, sent by the parser
 * before any route runs. Allowed on every route.
 */
const TRANSPORT_STATUSES = [431];

/** Stack frames, source paths and error class prefixes: none may reach a client. */
const LEAKS: RegExp[] = [
  /\bat [\w$.<>[\] ]+ \((?:\/|file:|node:)[^)]*:\d+:\d+\)/,
  /\bat (?:\/|file:\/\/)[^\s]+:\d+:\d+/,
  /\b(?:Type|Reference|Range|Syntax|Prisma\w*)Error: /,
  /\/(?:work|home|app|usr\/src)\/[\w./-]+\.(?:ts|js|cjs|mjs)\b/,
  /node_modules\//,
  /\bat async /,
];

function leak(text: string): string | undefined {
  for (const re of LEAKS) {
    const m = re.exec(text);
    if (m) return m[0];
  }
  return undefined;
}

function seedOf(name: string): number {
  return (FUZZ_SEED ^ createHash('sha256').update(name).digest().readUInt32BE(0)) | 0;
}

export interface FuzzTarget {
  baseUrl: string;
  db: Database;
}

/** Runs FUZZ_RUNS generated requests against one route and returns what it saw; never throws for a bad answer. */
export async function fuzzRoute(target: FuzzTarget, spec: RouteSpec, runs = FUZZ_RUNS): Promise<RouteStats> {
  const stats: RouteStats = { route: spec.name, inputs: 0, statuses: new Map(), violations: [] };
  const seed = seedOf(spec.name);
  const samples = fc.sample(requestArb(spec), { numRuns: runs, seed });
  // Inputs go in small concurrent batches (the apps wait on the database far more than they compute). The write log
  // is read before and after each batch: a batch of only refused inputs must have written nothing. A batch that mixes
  // accepted and refused inputs cannot tell whose writes they were; its refused inputs are re-sent one at a time.
  const concurrency = Math.max(1, spec.concurrency ?? FUZZ_CONCURRENCY);
  const prepared: { input: RequestInput; note: string; generated: RequestInput & { note: string } }[] = [];
  for (const generated of samples)
    prepared.push({ input: await buildInput(spec, generated), note: generated.note, generated });
  stats.writeChecked = 0;
  const checkOne = (input: RequestInput, note: string, res: RawResponse): string[] => {
    const problems: string[] = [];
    if (res.status === 0) problems.push('connection dropped without an answer');
    else if (res.status >= 500) problems.push(`5xx answer ${res.status}`);
    else if (!spec.allowed.includes(res.status) && !TRANSPORT_STATUSES.includes(res.status))
      problems.push(`undocumented status ${res.status}`);
    const leaked = leak(res.text) ?? leak(JSON.stringify(res.headers));
    if (leaked) problems.push(`leak: ${leaked}`);
    const isJson = /\bjson\b/i.test(String(res.headers['content-type'] ?? ''));
    if (res.status >= 400 && isJson && spec.errorSchema) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(res.text);
      } catch {
        problems.push('error body is not valid JSON');
      }
      const problemJson = /problem\+json/i.test(String(res.headers['content-type']));
      if (parsed !== undefined && !problemJson && !spec.errorSchema.safeParse(parsed).success)
        problems.push('error body does not match the error schema');
    }
    return problems;
  };
  const record = (input: RequestInput, note: string, res: RawResponse, problems: string[]) => {
    // FUZZ_DEBUG=1: the whole input of a 5xx, to reproduce it by hand.
    if (process.env['FUZZ_DEBUG'] && res.status >= 500)
      process.stderr.write(`fuzz 5xx input: ${JSON.stringify(input)}\n`);
    for (const problem of problems) {
      stats.violations.push({
        route: spec.name,
        problem,
        status: res.status,
        input: `${shortInput(input)} (${note})`,
        response: res.text.length > 400 ? `${res.text.slice(0, 400)}…` : res.text,
      });
    }
  };
  const refused = (status: number) => status >= 400 || status === 0;
  const wroteProblem = async (since: number, statuses: number[]): Promise<string | undefined> => {
    const mayWrite = new Set(statuses.flatMap((st) => spec.refusalWrites?.[st] ?? []));
    const written = (await writesSince(target.db, since)).filter(
      (w) => spec.writes.includes(w.tbl) && !mayWrite.has(w.tbl) && !IGNORED_WRITES.has(`${w.tbl}:${w.op}`),
    );
    return written.length ? written.map((w) => `${w.op} ${w.tbl} ×${w.n}`).join(', ') : undefined;
  };
  /** One input alone, with an exact write check. */
  const sendAlone = async (item: (typeof prepared)[number], count: boolean): Promise<void> => {
    // Headers that may go stale (a session the previous input ended) are built again, odd headers applied on top.
    if (spec.headersWrite) item.input = await buildInput(spec, item.generated);
    const before = await lastWrite(target.db);
    const res = await send(target.baseUrl, item.input);
    if (res.status === -1) return;
    if (count) tally(res.status);
    const problems = count ? checkOne(item.input, item.note, res) : [];
    if (refused(res.status)) {
      stats.writeChecked!++;
      if ((await lastWrite(target.db)) !== before) {
        const wrote = await wroteProblem(before, [res.status]);
        if (wrote) problems.push(`refused (${res.status}) but wrote: ${wrote}`);
      }
    }
    record(item.input, item.note, res, problems);
  };
  const tally = (status: number) => {
    stats.inputs++;
    stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
  };
  for (let i = 0; i < prepared.length; i += concurrency) {
    const batch = prepared.slice(i, i + concurrency);
    if (concurrency === 1) {
      await sendAlone(batch[0]!, true);
      continue;
    }
    const before = await lastWrite(target.db);
    const answers = await Promise.all(batch.map((item) => send(target.baseUrl, item.input)));
    const after = await lastWrite(target.db);
    const sent = batch.map((item, k) => ({ ...item, res: answers[k]! })).filter((x) => x.res.status !== -1);
    for (const x of sent) {
      tally(x.res.status);
      record(x.input, x.note, x.res, checkOne(x.input, x.note, x.res));
    }
    const refusedOnes = sent.filter((x) => refused(x.res.status));
    if (!refusedOnes.length) continue;
    if (after === before) {
      stats.writeChecked! += refusedOnes.length;
    } else if (
      refusedOnes.length === sent.length &&
      !(await wroteProblem(
        before,
        refusedOnes.map((x) => x.res.status),
      ))
    ) {
      stats.writeChecked! += refusedOnes.length;
    } else {
      // Writes in a mixed batch (or a refused batch that wrote): re-send each refused input alone, exactly checked.
      for (const x of refusedOnes) await sendAlone(x, false);
    }
  }
  return stats;
}
