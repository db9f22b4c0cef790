import type { Mode } from '@expedition/contracts';
import { arg, type Command, int, opt, str } from './command-kit';
import { formatFields, formatKey, formatKeyTable, formatList } from './format';

/** An operator's publishable and secret keys, and the origins allowed to embed with them. */
export const KEY_COMMANDS: readonly Command[] = [
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
];
