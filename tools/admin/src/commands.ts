import type { ParseArgsConfig } from 'node:util';
import type { Mode } from '@expedition/contracts';
import {
  type AccountService,
  type OperatorService,
  type OperatorStatusValue,
  type DemoOperatorInfo,
  demoOperatorFilePath,
} from '@expedition/operators';
import {
  formatFields,
  formatKey,
  formatKeyTable,
  formatList,
  formatOperator,
  formatOperatorTable,
  formatSecretKeyTable,
} from './format';
import { formatTable } from './format';
import type { AgentKeyService, AgentKeyView } from './agent-keys';
import type { PolicyMailAdmin } from './policy-mails';

/** A mistake in how the command was typed (exit 2), as opposed to a refusal by the service (exit 1). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type Options = Record<string, string | boolean | undefined>;

export interface CommandContext {
  service: OperatorService;
  /** Portal accounts (provider admins). */
  accounts: AccountService;
  /** Agent platforms' keys for /acp/v1. */
  agentKeys: AgentKeyService;
  /** Policyholders' confirmation e-mails (resend). */
  policyMails: PolicyMailAdmin;
  args: string[];
  options: Options;
  ensureDemo(options: { demoOrigin?: string; webhookUrl?: string }): Promise<DemoOperatorInfo>;
  dataDir: string;
}

/** `data` is what --json prints; `text` is for people. */
export interface CommandOutput {
  data: unknown;
  text: string;
  /** 1 when only part of the work could be done; the output says what was left. */
  exitCode?: 1;
}

export interface Command {
  name: string;
  args: string[];
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Options that must be present (checked before the database is opened). */
  required?: string[];
  /** Options that must be whole numbers. */
  integers?: string[];
  run(ctx: CommandContext): Promise<CommandOutput>;
}

const str = { type: 'string' } as const;

function arg(ctx: CommandContext, index: number): string {
  return ctx.args[index] ?? '';
}

function opt(ctx: CommandContext, name: string): string | undefined {
  const value = ctx.options[name];
  return typeof value === 'string' ? value : undefined;
}

function int(ctx: CommandContext, name: string): number | undefined {
  const value = opt(ctx, name);
  return value === undefined ? undefined : Number(value);
}

const operatorOutput = (title: string) => (op: Awaited<ReturnType<OperatorService['getOperator']>>) => ({
  data: op,
  text: `${title}\n${formatOperator(op)}`,
});

function setStatus(name: string, status: OperatorStatusValue, summary: string): Command {
  return {
    name,
    args: ['operatorId'],
    usage: `${name} <operatorId>`,
    summary,
    options: {},
    run: async (ctx) => operatorOutput(`Operator is now ${status}.`)(await ctx.service.setStatus(arg(ctx, 0), status)),
  };
}

function setEmbedding(name: string, enabled: boolean, summary: string): Command {
  return {
    name,
    args: ['operatorId'],
    usage: `${name} <operatorId>`,
    summary,
    options: {},
    run: async (ctx) =>
      operatorOutput(`Embedding ${enabled ? 'enabled (live keys now work)' : 'disabled (live keys refused)'}.`)(
        await ctx.service.setEmbeddingEnabled(arg(ctx, 0), enabled),
      ),
  };
}

export const COMMANDS: readonly Command[] = [
  {
    name: 'operator:create',
    args: [],
    usage:
      'operator:create --name <name> [--email <email>] [--website <url>] [--commission-bps <n>] [--status pending|active|suspended]',
    summary: 'Create an operator (pending unless --status active)',
    options: { name: str, email: str, website: str, 'commission-bps': str, status: str },
    required: ['name'],
    integers: ['commission-bps'],
    run: async (ctx) =>
      operatorOutput('Created operator.')(
        await ctx.service.createOperator({
          name: opt(ctx, 'name') ?? '',
          contactEmail: opt(ctx, 'email'),
          websiteUrl: opt(ctx, 'website'),
          commissionRateBps: int(ctx, 'commission-bps'),
          status: opt(ctx, 'status') as OperatorStatusValue | undefined,
        }),
      ),
  },
  {
    name: 'operator:list',
    args: [],
    usage: 'operator:list',
    summary: 'List operators',
    options: {},
    run: async (ctx) => {
      const ops = await ctx.service.listOperators();
      return { data: ops, text: formatOperatorTable(ops) };
    },
  },
  {
    name: 'operator:show',
    args: ['operatorId'],
    usage: 'operator:show <operatorId>',
    summary: 'Show an operator with its keys and allowed origins',
    options: {},
    run: async (ctx) => {
      const id = arg(ctx, 0);
      const operator = await ctx.service.getOperator(id);
      const [keys, secretKeys, allowedOrigins] = await Promise.all([
        ctx.service.listKeys(id),
        ctx.service.listSecretKeys(id),
        ctx.service.listAllowedOrigins(id),
      ]);
      const text = [
        formatOperator(operator),
        '',
        'Allowed origins:',
        formatList(allowedOrigins, '  (none: add one with origin:add)'),
        '',
        'Publishable keys:',
        formatKeyTable(keys),
        '',
        'Secret keys:',
        formatSecretKeyTable(secretKeys),
      ].join('\n');
      return { data: { operator, keys, secretKeys, allowedOrigins }, text };
    },
  },
  setStatus('operator:activate', 'active', 'Activate an operator (its keys start working)'),
  setStatus('operator:suspend', 'suspended', 'Suspend an operator (all its keys stop working)'),
  setEmbedding('operator:enable-embedding', true, 'Approve live embedding (live keys work)'),
  setEmbedding('operator:disable-embedding', false, 'Withdraw live embedding (live keys refused)'),
  {
    name: 'operator:set-commission',
    args: ['operatorId'],
    usage: 'operator:set-commission <operatorId> --bps <0..10000>',
    summary: 'Set the commission rate in basis points (1000 = 10 %)',
    options: { bps: str },
    required: ['bps'],
    integers: ['bps'],
    run: async (ctx) =>
      operatorOutput('Commission updated.')(await ctx.service.setCommissionRate(arg(ctx, 0), int(ctx, 'bps') ?? NaN)),
  },
  {
    name: 'operator:set-webhook',
    args: ['operatorId'],
    usage: 'operator:set-webhook <operatorId> --url <https url> [--secret <secret>]',
    summary: 'Set the policy.issued webhook URL and secret (generated when omitted; shown once)',
    options: { url: str, secret: str },
    required: ['url'],
    run: async (ctx) => {
      const update = await ctx.service.setWebhook(arg(ctx, 0), {
        url: opt(ctx, 'url') ?? '',
        secret: opt(ctx, 'secret'),
      });
      const secretLine = update.secretGenerated
        ? `Webhook secret (shown once; give it to the operator now): ${update.webhookSecret}`
        : 'Webhook secret: the one you passed with --secret.';
      return { data: update, text: `Webhook set.\n${formatOperator(update.operator)}\n\n${secretLine}` };
    },
  },
  {
    name: 'operator:clear-webhook',
    args: ['operatorId'],
    usage: 'operator:clear-webhook <operatorId>',
    summary: 'Remove the webhook URL and secret',
    options: {},
    run: async (ctx) => operatorOutput('Webhook cleared.')(await ctx.service.clearWebhook(arg(ctx, 0))),
  },
  {
    name: 'secrets:rewrap',
    args: [],
    usage: 'secrets:rewrap',
    summary: "Re-wrap every operator's webhook secret under the current WEBHOOK_SECRET_KEYS key (after a rotation)",
    options: {},
    run: async (ctx) => {
      const report = await ctx.service.rewrapWebhookSecrets();
      const text = [
        `Webhook secrets now under key "${report.keyId}".`,
        formatFields([
          ['operators with a secret', String(report.total)],
          ['re-wrapped', String(report.rewrapped)],
          ['sealed (were plain)', String(report.sealedLegacy)],
          ['already current', String(report.alreadyCurrent)],
          ['changed meanwhile', String(report.changedMeanwhile)],
        ]),
        ...report.failed.map((f) => `  could not open the secret of ${f.operatorId}: ${f.reason}`),
        report.failed.length
          ? 'Those operators keep their stored value: add the key that sealed it to WEBHOOK_SECRET_KEYS, or set a new secret.'
          : 'Old keys can be removed from WEBHOOK_SECRET_KEYS once every process runs with this keyring.',
      ].join('\n');
      return { data: report, text, ...(report.failed.length ? { exitCode: 1 as const } : {}) };
    },
  },
  {
    name: 'key:create',
    args: ['operatorId'],
    usage: 'key:create <operatorId> --mode test|live [--label <label>]',
    summary: 'Mint a publishable key',
    options: { mode: str, label: str },
    required: ['mode'],
    run: async (ctx) => {
      const key = await ctx.service.mintPublishableKey(arg(ctx, 0), opt(ctx, 'mode') as Mode, opt(ctx, 'label'));
      return { data: key, text: `Created ${key.mode} publishable key.\n${formatKey(key)}` };
    },
  },
  {
    name: 'key:list',
    args: ['operatorId'],
    usage: 'key:list <operatorId>',
    summary: "List an operator's publishable keys",
    options: {},
    run: async (ctx) => {
      const keys = await ctx.service.listKeys(arg(ctx, 0));
      return { data: keys, text: formatKeyTable(keys) };
    },
  },
  {
    name: 'key:revoke',
    args: ['keyOrId'],
    usage: 'key:revoke <key or key id>',
    summary: 'Revoke a publishable key now',
    options: {},
    run: async (ctx) => {
      const key = await ctx.service.revokeKey(arg(ctx, 0));
      return {
        data: key,
        text: `Revoked.\n${formatKey(key)}\n\nRunning embed-api processes stop accepting it within their key cache TTL (5 s).`,
      };
    },
  },
  {
    name: 'key:rotate',
    args: ['keyOrId'],
    usage: 'key:rotate <key or key id> [--grace-seconds <n>]',
    summary: 'Mint a replacement; the old key works for the grace period (or is revoked now)',
    options: { 'grace-seconds': str },
    integers: ['grace-seconds'],
    run: async (ctx) => {
      const rotated = await ctx.service.rotateKey(arg(ctx, 0), { graceSeconds: int(ctx, 'grace-seconds') });
      const old = rotated.oldKey.expiresAt
        ? `The old key keeps working until ${rotated.oldKey.expiresAt.toISOString()}.`
        : 'The old key is revoked now.';
      return { data: rotated, text: `New key:\n${formatKey(rotated.newKey)}\n\n${old}` };
    },
  },
  {
    name: 'secret-key:create',
    args: ['operatorId'],
    usage: 'secret-key:create <operatorId> --mode test|live',
    summary: 'Mint a secret key (shown once; only its hash is stored)',
    options: { mode: str },
    required: ['mode'],
    run: async (ctx) => {
      const minted = await ctx.service.mintSecretKey(arg(ctx, 0), opt(ctx, 'mode') as Mode);
      const text = [
        `Created ${minted.secretKey.mode} secret key (shown once; it cannot be recovered):`,
        `  ${minted.key}`,
        formatFields([
          ['id', minted.secretKey.id],
          ['prefix', minted.secretKey.prefix],
        ]),
      ].join('\n');
      return { data: minted, text };
    },
  },
  {
    name: 'origin:add',
    args: ['operatorId', 'origin'],
    usage: 'origin:add <operatorId> <origin>',
    summary: 'Allow an origin (scheme://host[:port]) for the embed API',
    options: {},
    run: async (ctx) => {
      const result = await ctx.service.addAllowedOrigin(arg(ctx, 0), arg(ctx, 1));
      return { data: result, text: result.added ? `Added ${result.origin}.` : `${result.origin} was already allowed.` };
    },
  },
  {
    name: 'origin:remove',
    args: ['operatorId', 'origin'],
    usage: 'origin:remove <operatorId> <origin>',
    summary: 'Remove an allowed origin',
    options: {},
    run: async (ctx) => {
      const result = await ctx.service.removeAllowedOrigin(arg(ctx, 0), arg(ctx, 1));
      return {
        data: result,
        text: result.removed ? `Removed ${result.origin}.` : `${result.origin} was not in the list.`,
      };
    },
  },
  {
    name: 'origin:list',
    args: ['operatorId'],
    usage: 'origin:list <operatorId>',
    summary: "List an operator's allowed origins",
    options: {},
    run: async (ctx) => {
      const origins = await ctx.service.listAllowedOrigins(arg(ctx, 0));
      return { data: origins, text: formatList(origins, 'No allowed origins.') };
    },
  },
  {
    name: 'agent-key:create',
    args: ['name'],
    usage: 'agent-key:create <name> [--mode test|live]',
    summary: "Mint an agent platform's key for /acp/v1 (shown once; only its hash is stored)",
    options: { mode: str },
    run: async (ctx) => {
      const minted = await ctx.agentKeys.create(arg(ctx, 0), opt(ctx, 'mode'));
      const text = [
        `Created ${minted.agentKey.mode} agent key for ${minted.agentKey.name} (shown once; it cannot be recovered):`,
        `  ${minted.key}`,
        formatAgentKey(minted.agentKey),
        '',
        'The agent platform sends it as `Authorization: Bearer <key>` to /acp/v1 (see docs/acp.md).',
      ].join('\n');
      return { data: minted, text };
    },
  },
  {
    name: 'agent-key:list',
    args: [],
    usage: 'agent-key:list',
    summary: "List agent platforms' keys (never the secrets)",
    options: {},
    run: async (ctx) => {
      const keys = await ctx.agentKeys.list();
      const text = keys.length
        ? formatTable(
            ['ID', 'MODE', 'STATE', 'PREFIX', 'SIGNING', 'LAST USED', 'NAME'],
            keys.map((k) => [
              k.id,
              k.mode,
              k.state,
              k.prefix,
              k.signing ?? '-',
              k.lastUsedAt?.toISOString() ?? '-',
              k.name,
            ]),
          )
        : 'No agent keys yet. Create one with: npm run admin -- agent-key:create <name> --mode test';
      return { data: keys, text };
    },
  },
  {
    name: 'agent-key:revoke',
    args: ['id'],
    usage: 'agent-key:revoke <id>',
    summary: 'Revoke an agent key now (its next request is 401)',
    options: {},
    run: async (ctx) => {
      const key = await ctx.agentKeys.revoke(arg(ctx, 0));
      return { data: key, text: `Revoked.\n${formatAgentKey(key)}` };
    },
  },
  {
    name: 'agent-key:signing-key',
    args: ['id'],
    usage: 'agent-key:signing-key <id> (--public-key="$(cat key.pub.pem)" | --public-key=<JWK> | --remove)',
    summary: "Register or rotate an agent platform's request-signing public key (Ed25519 or ES256), or remove it",
    options: { 'public-key': str, remove: { type: 'boolean' } },
    run: async (ctx) => {
      const publicKey = opt(ctx, 'public-key');
      const remove = ctx.options['remove'] === true;
      if ((publicKey === undefined) === !remove)
        throw new UsageError('give exactly one of --public-key <PEM or JWK> and --remove');
      const key = await ctx.agentKeys.setSigningKey(arg(ctx, 0), remove ? null : publicKey!);
      const text = key.signing
        ? `Registered an ${key.signing} signing key: from now on every /acp/v1 request of this key must carry a valid Signature and a fresh Timestamp (docs/acp.md, "Request signatures").\n${formatAgentKey(key)}`
        : `Removed the signing key: this key's requests are no longer checked for a signature.\n${formatAgentKey(key)}`;
      return { data: key, text };
    },
  },
  {
    name: 'agent-key:webhook',
    args: ['id'],
    usage: 'agent-key:webhook <id> (--url <https URL> [--secret <s> | --generate] | --remove)',
    summary:
      "Set where an agent platform's ACP order events are sent, and their signing secret (a generated one is shown once), or remove it",
    options: { url: str, secret: str, generate: { type: 'boolean' }, remove: { type: 'boolean' } },
    run: async (ctx) => {
      const url = opt(ctx, 'url');
      const remove = ctx.options['remove'] === true;
      if ((url === undefined) === !remove) throw new UsageError('give exactly one of --url <URL> and --remove');
      if (remove) {
        const key = await ctx.agentKeys.removeWebhook(arg(ctx, 0));
        return {
          data: key,
          text: `Removed the webhook: no order events are sent to this platform any more.\n${formatAgentKey(key)}`,
        };
      }
      const set = await ctx.agentKeys.setWebhook(arg(ctx, 0), {
        url: url!,
        secret: opt(ctx, 'secret'),
        generate: ctx.options['generate'] === true,
      });
      const text = [
        `Order events (order_create) of this key's ACP sales now go to ${set.agentKey.webhookUrl}, signed with Merchant-Signature (docs/acp.md, "Order webhooks").`,
        ...(set.generatedSecret
          ? ['Signing secret (shown once; give it to the platform):', `  ${set.generatedSecret}`]
          : []),
        formatAgentKey(set.agentKey),
      ].join('\n');
      return { data: set, text };
    },
  },
  {
    name: 'agent-key:deliveries',
    args: ['id'],
    usage: 'agent-key:deliveries <id>',
    summary: "An agent key's ACP order events and their delivery state, newest first (the last 50)",
    options: {},
    run: async (ctx) => {
      const rows = await ctx.agentKeys.deliveries(arg(ctx, 0));
      const text = rows.length
        ? formatTable(
            [
              'EVENT',
              'TYPE',
              'ORDER',
              'STATUS',
              'ATTEMPTS',
              'LAST HTTP',
              'LAST ERROR',
              'CREATED',
              'DELIVERED / NEXT TRY',
            ],
            rows.map((r) => [
              r.eventId,
              r.type,
              r.orderNumber ?? '-',
              r.status,
              `${r.attempts}/${r.maxAttempts}`,
              r.lastStatusCode === null ? '-' : String(r.lastStatusCode),
              r.lastError ?? '-',
              r.createdAt.toISOString(),
              (r.deliveredAt ?? r.nextAttemptAt)?.toISOString() ?? '-',
            ]),
          )
        : 'No order events for this key yet.';
      return { data: rows, text };
    },
  },
  {
    name: 'policy:resend-confirmation',
    args: ['policyNumber'],
    usage: 'policy:resend-confirmation <policyNumber> [--to <address>]',
    summary: "Queue a policy's confirmation e-mail (certificate attached) once more; audited",
    options: { to: str },
    run: async (ctx) => {
      const policyNumber = arg(ctx, 0);
      const to = opt(ctx, 'to');
      if (to !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(to.trim()))
        throw new UsageError(`--to "${to}" is not an e-mail address`);
      const result = await ctx.policyMails.resendConfirmation(policyNumber, to);
      switch (result.outcome) {
        case 'queued':
          return {
            data: result,
            text: `Queued the confirmation e-mail of ${policyNumber} again (resend ${result.resends}); the dispatcher's mail worker sends it within seconds. Recorded in the audit log.`,
          };
        case 'already_queued':
          return {
            data: result,
            text: `The confirmation e-mail of ${policyNumber} is already waiting to be sent: nothing changed.`,
            exitCode: 1,
          };
        case 'no_address':
          return {
            data: result,
            text: `No e-mail address is known for ${policyNumber}: pass --to <address>. Nothing changed.`,
            exitCode: 1,
          };
        case 'no_policy':
          return { data: result, text: `No policy ${policyNumber}.`, exitCode: 1 };
      }
    },
  },
  {
    name: 'create-provider-admin',
    args: ['email'],
    usage: 'create-provider-admin <email>',
    summary: 'Create a provider admin of the operator portal (prints a generated password once)',
    options: {},
    run: async (ctx) => {
      const { user, password } = await ctx.accounts.createProviderAdmin(arg(ctx, 0));
      const text = [
        'Provider admin created. The password is shown ONCE: store it now (change it in the portal after logging in).',
        formatFields([
          ['email', user.email],
          ['password', password],
          ['user id', user.id],
        ]),
      ].join('\n');
      return { data: { user, password }, text };
    },
  },
  {
    name: 'demo:ensure',
    args: [],
    usage: 'demo:ensure [--demo-origin <origin>] [--webhook-url <url>]',
    summary: 'Create or refresh the demo operator and DATA_DIR/demo-operator.json (what npm start does)',
    options: { 'demo-origin': str, 'webhook-url': str },
    run: async (ctx) => {
      const info = await ctx.ensureDemo({ demoOrigin: opt(ctx, 'demo-origin'), webhookUrl: opt(ctx, 'webhook-url') });
      const text = [
        `Demo operator ready; written to ${demoOperatorFilePath(ctx.dataDir)} (mode 0600).`,
        formatFields([
          ['operator', `${info.name} (${info.operatorId})`],
          ['publishable key', info.publishableKey],
          ['allowed origins', info.allowedOrigins.join(', ')],
          ['webhook url', info.webhookUrl],
          ['webhook secret', info.webhookSecret],
        ]),
      ].join('\n');
      return { data: info, text };
    },
  },
];

function formatAgentKey(key: AgentKeyView): string {
  return formatFields([
    ['id', key.id],
    ['name', key.name],
    ['mode', key.mode],
    ['prefix', key.prefix],
    ['state', key.state],
    ['created', key.createdAt.toISOString()],
    ...(key.revokedAt ? ([['revoked', key.revokedAt.toISOString()]] as const) : []),
    ['signing', key.signing ?? 'none (requests are not signed)'],
    ['webhook', key.webhookUrl ?? 'none (no order events are sent)'],
  ]);
}
