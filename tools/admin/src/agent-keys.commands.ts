import type { AgentKeyView } from './agent-keys';
import { arg, type Command, opt, str, UsageError } from './command-kit';
import { formatFields, formatTable } from './format';

/** Agent platforms' keys for /acp/v1: minting, revoking, request signing, order webhooks and their deliveries. */
export const AGENT_KEY_COMMANDS: readonly Command[] = [
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
