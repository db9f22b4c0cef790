import { createHash } from 'node:crypto';
import http from 'node:http';
import fc from 'fast-check';
import type { z } from 'zod';
import type { Database } from '@expedition/db';
import { headerValue, oddParam, wireBody, type WireBody } from './inputs';

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

export const FUZZ_RUNS = Number(process.env['FUZZ_RUNS'] || 1000);
export const FUZZ_SEED = Number(process.env['FUZZ_SEED'] || 20261123);
export const FUZZ_CONCURRENCY = Number(process.env['FUZZ_CONCURRENCY'] || 4);

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestInput {
  method: Method;
  path: string;
  headers: Record<string, string>;
  body?: WireBody;
}

export interface RouteSpec {
  /** `POST /api/v1/quotes`; also the replay key of the route's seed. */
  name: string;
  method: Method;
  /** Path template, `{param}` for path parameters. */
  path: string;
  /** Valid values per path parameter (mixed with odd ones). */
  params?: Record<string, fc.Arbitrary<string>>;
  /** Valid query objects (mixed with odd queries). */
  query?: fc.Arbitrary<Record<string, string | string[]>>;
  /** Valid bodies: the contract's generator, often with seeds that reach deep into the route. */
  body?: fc.Arbitrary<unknown>;
  /** The JSON body limit of the app (bytes). */
  bodyLimit?: number;
  /** Headers a real client sends (publishable key, Origin, session cookie, CSRF token…); resolved per request. */
  headers?: () => Record<string, string> | Promise<Record<string, string>>;
  /** The headers function may write (e.g. a fresh session): the write baseline is taken after it. */
  headersWrite?: boolean;
  /** Inputs in flight at once (FUZZ_CONCURRENCY, default 4); 1 for routes whose inputs change the next one's state. */
  concurrency?: number;
  /** Headers computed from the final request (e.g. a valid signature of the body); odd headers still override them. */
  sign?: (input: RequestInput) => Record<string, string>;
  /** Headers to fuzz besides the usual ones (Idempotency-Key, Authorization, Origin…). */
  oddHeaders?: string[];
  /** Statuses the route documents. */
  allowed: number[];
  /** JSON error bodies must match this. */
  errorSchema?: z.ZodType;
  /** Tables the route writes: no row of them inserted, updated or deleted by a refused request. */
  writes: string[];
  /** Statuses that refuse but are documented to write (e.g. a 402 challenge row): table names allowed to grow. */
  refusalWrites?: Partial<Record<number, string[]>>;
}

export interface Violation {
  route: string;
  problem: string;
  status: number;
  input: string;
  response: string;
}

export interface RouteStats {
  route: string;
  inputs: number;
  statuses: Map<number, number>;
  violations: Violation[];
  /** Refused inputs whose "nothing written" was checked. */
  writeChecked?: number;
}

/**
 * Answers of Node's HTTP server itself: 431 for request headers (URL included) over 16 KiB, sent by the parser
 * before any route runs. Allowed on every route.
 */
const TRANSPORT_STATUSES = [431];

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request over a real socket; never throws for an HTTP answer (a reset socket is reported as status 0). */
export function send(baseUrl: string, input: RequestInput): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { ...input.headers };
  const payload = input.body?.text !== undefined ? Buffer.from(input.body.text, 'utf8') : undefined;
  if (input.body?.contentType) headers['content-type'] = input.body.contentType;
  if (payload) headers['content-length'] = String(payload.length);
  return new Promise((resolve) => {
    let req: http.ClientRequest;
    try {
      req = http.request({
        host: url.hostname,
        port: url.port,
        method: input.method,
        path: input.path,
        headers,
        agent,
      });
    } catch (error) {
      // The client itself refused to send it (an invalid header or path): not the server's fault.
      resolve({ status: -1, headers: {}, text: String((error as Error).message) });
      return;
    }
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', () => resolve({ status: 0, headers: res.headers, text: '' }));
    });
    req.on('error', (error) => resolve({ status: 0, headers: {}, text: `socket error: ${(error as Error).message}` }));
    req.end(payload);
  });
}

/** Percent-encodes any string, lone surrogates included (sent as the bytes a sloppy client would send). */
export function encodeParam(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
}

function queryString(query: Record<string, string | string[]>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) parts.push(`${encodeParam(key)}=${encodeParam(v)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

const RAW_QUERIES = [
  '?',
  '?&&',
  '?=',
  '?a',
  '?%',
  '?%ZZ=1',
  '?a[b]=1',
  '?__proto__[x]=1',
  '?constructor[prototype][x]=1',
  '?a=1&a=2&a=3',
  `?${'a=1&'.repeat(2000)}`,
  '?#frag',
];

const COMMON_ODD_HEADERS = [
  'origin',
  'idempotency-key',
  'authorization',
  'x-request-id',
  'accept',
  'cookie',
  'x-forwarded-for',
];

function requestArb(spec: RouteSpec): fc.Arbitrary<RequestInput & { note: string }> {
  const paramNames = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const paramArb = fc.record(
    Object.fromEntries(
      paramNames.map((name) => [
        name,
        fc
          .oneof({ weight: 3, arbitrary: spec.params?.[name] ?? oddParam }, { weight: 2, arbitrary: oddParam })
          .map(encodeParam),
      ]),
    ) as Record<string, fc.Arbitrary<string>>,
  );
  const valid = spec.query ?? fc.constant({});
  const queryArb: fc.Arbitrary<string> = fc.oneof(
    { weight: 4, arbitrary: valid.map(queryString) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          valid,
          fc.oneof(fc.constantFrom('', '__proto__', 'constructor', 'pk', 'quoteId', 'destination'), oddParam),
          oddParam,
          fc.boolean(),
        )
        .map(([q, key, value, repeat]) => {
          const base = { ...q } as Record<string, string | string[]>;
          const target = key || Object.keys(base)[0] || 'q';
          base[target] = repeat ? [value, value] : value;
          return queryString(base);
        }),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES) },
  );
  const oddHeaderNames = [...COMMON_ODD_HEADERS, ...(spec.oddHeaders ?? [])];
  const headersArb = fc.oneof(
    { weight: 3, arbitrary: fc.constant<Record<string, string | null>>({}) },
    {
      weight: 2,
      arbitrary: fc.dictionary(fc.constantFrom(...oddHeaderNames), fc.option(headerValue, { nil: null }), {
        minKeys: 1,
        maxKeys: 3,
      }),
    },
  );
  const bodyArb: fc.Arbitrary<WireBody | undefined> = spec.body
    ? wireBody({ valid: spec.body, limitBytes: spec.bodyLimit ?? 64 * 1024 })
    : fc.oneof(
        { weight: 5, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.constant<WireBody>({ kind: 'odd-json', contentType: 'application/json', text: '{"a":' }),
        },
      );
  return fc.tuple(paramArb, queryArb, headersArb, bodyArb).map(([params, query, oddHeaders, body]) => {
    const path = spec.path.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? 'x') + query;
    const headers: Record<string, string> = {};
    const nulls: string[] = [];
    for (const [k, v] of Object.entries(oddHeaders)) {
      if (v === null) nulls.push(k);
      else headers[k] = v;
    }
    const note = [
      body?.kind ?? 'no-body',
      Object.keys(oddHeaders).length ? `odd headers: ${Object.keys(oddHeaders).join(',')}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    // `null` removes a header the client would normally send (no key, no Origin, no CSRF token).
    return { method: spec.method, path, headers: Object.assign(headers, { __remove: nulls.join(',') }), body, note };
  });
}

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

function shortInput(input: RequestInput): string {
  const body =
    input.body?.text === undefined
      ? ''
      : input.body.text.length > 300
        ? `${input.body.text.slice(0, 300)}…(${input.body.text.length} chars)`
        : input.body.text;
  const headers = Object.entries(input.headers)
    .filter(([k]) => k !== '__remove' && k !== 'cookie' && k !== 'x-csrf-token')
    .map(([k, v]) => `${k}: ${v.length > 60 ? `${v.slice(0, 60)}…` : v}`)
    .join(' | ');
  return `${input.method} ${input.path.length > 200 ? `${input.path.slice(0, 200)}…` : input.path} [${input.body?.kind ?? 'no-body'}; ct=${input.body?.contentType ?? '-'}] {${headers}} ${body}`;
}

/**
 * Every row written to a watched table (insert, update, delete) is logged by a trigger into `fuzz_write_log`, so one
 * cheap `max(id)` per input tells whether the request wrote anything, and the log says what. The test database is a
 * throwaway schema (or PGlite), so the triggers never reach a real database.
 */
export async function installWriteLog(db: Database, tables: readonly string[]): Promise<void> {
  const statements = [
    'CREATE TABLE IF NOT EXISTS fuzz_write_log (id bigserial PRIMARY KEY, tbl text NOT NULL, op text NOT NULL)',
    `CREATE OR REPLACE FUNCTION fuzz_log_write() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN INSERT INTO fuzz_write_log (tbl, op) VALUES (TG_TABLE_NAME, TG_OP); RETURN NULL; END $$`,
    ...tables.map(
      (t) =>
        `DROP TRIGGER IF EXISTS fuzz_write_log ON "${t}"; CREATE TRIGGER fuzz_write_log AFTER INSERT OR UPDATE OR DELETE ON "${t}" FOR EACH ROW EXECUTE FUNCTION fuzz_log_write()`,
    ),
  ];
  await db.withConnection(async (executor) => {
    for (const sql of statements) await executor.exec(sql);
  });
}

/** Activity stamps a refused request may legitimately write (key `last_used_at`, session `last_seen_at`). */
const IGNORED_WRITES = new Set(['publishable_keys:UPDATE', 'operator_sessions:UPDATE']);

async function lastWrite(db: Database): Promise<number> {
  const [row] = await db.withConnection((executor) =>
    executor.query<{ id: string | number | null }>('SELECT max(id) AS id FROM fuzz_write_log'),
  );
  return Number(row?.id ?? 0);
}

async function writesSince(db: Database, id: number): Promise<{ tbl: string; op: string; n: number }[]> {
  const rows = await db.withConnection((executor) =>
    executor.query<{ tbl: string; op: string; n: string | number }>(
      'SELECT tbl, op, count(*) AS n FROM fuzz_write_log WHERE id > $1 GROUP BY tbl, op',
      [id],
    ),
  );
  return rows.map((r) => ({ tbl: r.tbl, op: r.op, n: Number(r.n) }));
}

function seedOf(name: string): number {
  return (FUZZ_SEED ^ createHash('sha256').update(name).digest().readUInt32BE(0)) | 0;
}

export interface FuzzTarget {
  baseUrl: string;
  db: Database;
}

async function buildInput(spec: RouteSpec, generated: RequestInput & { note: string }): Promise<RequestInput> {
  const { __remove, ...oddHeaders } = generated.headers;
  const base = (await spec.headers?.()) ?? {};
  const signed =
    spec.sign?.({ method: generated.method, path: generated.path, headers: base, body: generated.body }) ?? {};
  const headers: Record<string, string> = { ...base, ...signed, ...oddHeaders };
  for (const name of (__remove ?? '').split(',').filter(Boolean)) {
    for (const key of Object.keys(headers)) if (key.toLowerCase() === name) delete headers[key];
  }
  return { method: generated.method, path: generated.path, headers, body: generated.body };
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

/** `POST /api/v1/quotes  inputs=1000  200×312 400×640 413×48` */
export function formatStats(stats: RouteStats): string {
  const statuses = [...stats.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  return `${stats.route.padEnd(62)} inputs=${String(stats.inputs).padStart(5)} write-checked=${String(stats.writeChecked ?? 0).padStart(5)}  ${statuses}${stats.violations.length ? `  VIOLATIONS=${stats.violations.length}` : ''}`;
}

/** Groups violations by problem so a report is readable: each problem once, with its first input. */
export function summarizeViolations(violations: Violation[]): string[] {
  const byProblem = new Map<string, { count: number; first: Violation }>();
  for (const v of violations) {
    const key = `${v.route} :: ${v.problem.replace(/\d+→\d+/g, 'n→m')}`;
    const entry = byProblem.get(key);
    if (entry) entry.count++;
    else byProblem.set(key, { count: 1, first: v });
  }
  return [...byProblem.entries()].map(
    ([key, { count, first }]) => `${key} (×${count})\n    input:    ${first.input}\n    response: ${first.response}`,
  );
}

/** A suite's report: one line per route and a total, printed whatever the outcome. */
export function printReport(app: string, all: RouteStats[]): void {
  const inputs = all.reduce((n, s) => n + s.inputs, 0);
  const violations = all.reduce((n, s) => n + s.violations.length, 0);
  const lines = [
    `fuzz ${app}: seed ${FUZZ_SEED} (FUZZ_SEED to replay), ${FUZZ_RUNS} runs per route`,
    ...all.map(formatStats),
    `fuzz ${app} total: ${all.length} routes, ${inputs} inputs, ${violations} violations`,
  ];
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
