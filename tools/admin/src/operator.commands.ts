import type { OperatorService, OperatorStatusValue } from '@expedition/operators';
import { arg, type Command, int, opt, str } from './command-kit';
import {
  formatFields,
  formatKeyTable,
  formatList,
  formatOperator,
  formatOperatorTable,
  formatSecretKeyTable,
} from './format';

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

/** Operators: create, read, status, live embedding, commission, webhook, and re-wrapping webhook secrets. */
export const OPERATOR_COMMANDS: readonly Command[] = [
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
];
