import { parseArgs } from 'node:util';
import type { RandomBytes } from '@expedition/auth-publishable-key';
import type { Database } from '@expedition/db';
import type { Clock } from '@expedition/platform';
import {
  type Keyring,
  type SecretBox,
  WebhookSecretKeysError,
  CLI_ACTOR,
  createAccountService,
  createOperatorService,
  createSecretBox,
  ensureDemoOperator,
  isAccountError,
  isOperatorError,
} from '@expedition/operators';
import { AgentKeyError, createAgentKeyService } from './agent-keys';
import { createPolicyMailAdmin } from './policy-mails';
import { createPaymentsAdmin } from './payments';
import type { PaymentsSettings } from '@expedition/payments';
import { type Command, type CommandContext, type CommandOutput, type Options, UsageError } from './command-kit';
import { COMMANDS } from './commands';

export interface AdminDeps {
  /** Opens the database; the runner closes it when the command is done. */
  openDatabase(): Promise<Database>;
  /** Migrations + catalog (prepareDatabase from @expedition/db in main.ts). */
  prepareDatabase(db: Database): Promise<unknown>;
  /** Where PGlite lives and demo-operator.json is written. */
  dataDir: string;
  /** True when DATABASE_URL points at PostgreSQL (changes the advice on open failures). */
  usingDatabaseUrl: boolean;
  /** Defaults for demo:ensure. */
  demoOrigin: string;
  demoWebhookUrl: string;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: set-webhook and demo:ensure accept loopback and private hosts (development).
   * Default false: public hosts only. */
  allowPrivateWebhookUrls?: boolean;
  /**
   * The keyring sealing operators' webhook secrets (resolveWebhookSecretKeys in main.ts). Called only by commands
   * that write or re-wrap a secret, so reading keys or origins works without WEBHOOK_SECRET_KEYS.
   */
  webhookSecretKeys(): Keyring;
  /** The payment processor settings (paymentsSettingsFromEnv in main.ts), for the payments:* commands. */
  paymentsSettings?(): PaymentsSettings;
  clock?: Clock;
  randomBytes?: RandomBytes;
}

export interface AdminResult {
  /** 0 ok, 1 refused or failed, 2 usage error. */
  exitCode: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

export const PROGRAM = 'npm run admin --';

/**
 * The whole CLI as a function: argv in, exit code and output out, no process access. main.ts only wires it to
 * process.argv/env and the terminal, so tests run every path in-process against a test database.
 */
export async function runAdmin(argv: readonly string[], deps: AdminDeps): Promise<AdminResult> {
  const json = argv.includes('--json');
  try {
    const parsed = parseCommandLine(argv);
    if ('help' in parsed) return ok(parsed.help);
    const output = await withDatabase(deps, (db) => parsed.command.run(context(db, deps, parsed)));
    const result = ok(json ? JSON.stringify(output.data, null, 2) : output.text);
    return { ...result, exitCode: output.exitCode ?? 0 };
  } catch (error) {
    return failure(error, json);
  }
}

interface ParsedCommand {
  command: Command;
  args: string[];
  options: Options;
}

function parseCommandLine(argv: readonly string[]): ParsedCommand | { help: string } {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const topic = name === 'help' ? rest.find((a) => !a.startsWith('-')) : undefined;
    return { help: topic ? commandHelp(findCommand(topic)) : helpText() };
  }
  const command = findCommand(name);
  const { values, positionals } = parseCommandArgs(command, rest);
  if (values['help']) return { help: commandHelp(command) };
  if (positionals.length !== command.args.length) {
    throw new UsageError(
      `${command.name} expects ${command.args.length === 0 ? 'no arguments' : command.args.map((a) => `<${a}>`).join(' ')}` +
        ` (got ${positionals.length})\nusage: ${PROGRAM} ${command.usage}`,
    );
  }
  checkOptions(command, values);
  return { command, args: positionals, options: values };
}

function findCommand(name: string): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command "${name}"; run \`${PROGRAM} help\` for the list`);
  return command;
}

function parseCommandArgs(command: Command, rest: string[]): { values: Options; positionals: string[] } {
  try {
    return parseArgs({
      args: rest,
      options: { ...command.options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // parseArgs' messages ("Unknown option '--x'...") are fine for people; add the usage line.
    throw new UsageError(`${(error as Error).message}\nusage: ${PROGRAM} ${command.usage}`);
  }
}

function checkOptions(command: Command, values: Options): void {
  for (const name of command.required ?? []) {
    if (typeof values[name] !== 'string' || values[name] === '') {
      throw new UsageError(`${command.name} needs --${name}\nusage: ${PROGRAM} ${command.usage}`);
    }
  }
  for (const name of command.integers ?? []) {
    const value = values[name];
    if (typeof value === 'string' && !/^-?\d+$/.test(value.trim())) {
      throw new UsageError(`--${name} must be a whole number (got "${value}")`);
    }
  }
}

/** A SecretBox that asks for the keyring on first use: a missing WEBHOOK_SECRET_KEYS fails only the commands needing it. */
function lazySecretBox(keyring: () => Keyring): SecretBox {
  let box: SecretBox | undefined;
  const get = () => (box ??= createSecretBox(keyring()));
  return {
    get currentKeyId() {
      return get().currentKeyId;
    },
    seal: (plain, context) => get().seal(plain, context),
    open: (stored, context) => get().open(stored, context),
    rewrap: (stored, context) => get().rewrap(stored, context),
    isCurrent: (stored) => get().isCurrent(stored),
  };
}

function context(db: Database, deps: AdminDeps, parsed: ParsedCommand): CommandContext {
  const secretBox = lazySecretBox(() => deps.webhookSecretKeys());
  const service = createOperatorService({
    prisma: db.prisma,
    clock: deps.clock,
    randomBytes: deps.randomBytes,
    secretBox,
    defaultActor: CLI_ACTOR,
    allowPrivateWebhookUrls: deps.allowPrivateWebhookUrls ?? false,
  });
  return {
    service,
    accounts: createAccountService({ prisma: db.prisma, clock: deps.clock }),
    agentKeys: createAgentKeyService({
      prisma: db.prisma,
      clock: deps.clock,
      secretBox,
      allowPrivateWebhookUrls: deps.allowPrivateWebhookUrls ?? false,
    }),
    policyMails: createPolicyMailAdmin({ prisma: db.prisma, clock: deps.clock }),
    payments: () => {
      if (!deps.paymentsSettings) throw new UsageError('no payment processor is configured for this command');
      return createPaymentsAdmin(db, deps.paymentsSettings(), deps.clock);
    },
    args: parsed.args,
    options: parsed.options,
    dataDir: deps.dataDir,
    ensureDemo: (options) =>
      ensureDemoOperator({
        prisma: db.prisma,
        dataDir: deps.dataDir,
        demoOrigin: options.demoOrigin ?? deps.demoOrigin,
        webhookUrl: options.webhookUrl ?? deps.demoWebhookUrl,
        clock: deps.clock,
        randomBytes: deps.randomBytes,
        secretBox,
        allowPrivateWebhookUrls: deps.allowPrivateWebhookUrls ?? false,
      }),
  };
}

/** Failures to open or prepare the database, told apart from the command's own errors. */
class DatabaseUnavailable extends Error {}

async function withDatabase(deps: AdminDeps, run: (db: Database) => Promise<CommandOutput>): Promise<CommandOutput> {
  let db: Database;
  try {
    db = await deps.openDatabase();
  } catch (error) {
    throw new DatabaseUnavailable(describeOpenFailure(error, deps));
  }
  try {
    try {
      await deps.prepareDatabase(db);
    } catch (error) {
      throw new DatabaseUnavailable(`could not prepare the database: ${messageOf(error)}`);
    }
    return await run(db);
  } finally {
    await db.close().catch(() => undefined);
  }
}

// createDatabase refuses a PGlite directory another live process holds (`<dataDir>/pglite.pid`); say what to do.
const PGLITE_IN_USE = /in use by process (\d+)/;

function describeOpenFailure(error: unknown, deps: AdminDeps): string {
  const message = messageOf(error);
  const busy = PGLITE_IN_USE.exec(message);
  if (busy && !deps.usingDatabaseUrl) {
    // README, "Operators: the admin CLI": why the CLI does not go through the running apps.
    return [
      `the database in ${deps.dataDir} is in use by another process (pid ${busy[1]}), probably \`npm start\`; PGlite (the embedded database) has one owner. Either:`,
      `  - stop it (Ctrl+C in its terminal, or \`kill ${busy[1]}\`), run this command, then \`npm start\` again: the data stays;`,
      `  - or, while it runs, use the operator portal's provider admin pages (operators, live embedding, commission, webhooks, audit log; the log-in is in ${deps.dataDir}/provider-admin.json);`,
      '  - or run both on PostgreSQL: the same DATABASE_URL=postgresql://… for `npm start` and for this command.',
    ].join('\n');
  }
  return `could not open the database: ${message}`;
}

function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `Expedition admin CLI (platform team). Usage: ${PROGRAM} <command> [options] [--json]`,
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    `  ${'help'.padEnd(width)}  This list; \`help <command>\` for one command's usage`,
    '',
    'Options for every command: --json (machine-readable output), --help.',
    'Database: DATABASE_URL (PostgreSQL) if set, else PGlite under DATA_DIR (default .data), which must not be open',
    'in `npm start` at the same time. Exit codes: 0 ok, 1 refused or failed, 2 usage error.',
    'Webhook secrets are stored sealed with WEBHOOK_SECRET_KEYS (required with DATABASE_URL; without it, the key in',
    'DATA_DIR/webhook-secret-keys, created on first use).',
  ].join('\n');
}

function commandHelp(command: Command): string {
  return `usage: ${PROGRAM} ${command.usage} [--json]\n\n${command.summary}.`;
}

function errorCode(error: unknown): string {
  if (error instanceof UsageError) return 'usage';
  if (error instanceof DatabaseUnavailable) return 'database_unavailable';
  if (error instanceof WebhookSecretKeysError) return 'config';
  if (isAccountError(error)) return error.code;
  if (error instanceof AgentKeyError) return error.code;
  return isOperatorError(error) ? error.code : 'error';
}

function ok(stdout: string): AdminResult {
  return { exitCode: 0, stdout: `${stdout}\n`, stderr: '' };
}

function failure(error: unknown, json: boolean): AdminResult {
  const exitCode = error instanceof UsageError ? 2 : 1;
  const message = messageOf(error);
  const stderr = json ? JSON.stringify({ error: { code: errorCode(error), message } }) : `error: ${message}`;
  return { exitCode, stdout: '', stderr: `${stderr}\n` };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
