import { demoOperatorFilePath } from '@expedition/operators';
import { arg, type Command, opt, str, UsageError } from './command-kit';
import { formatFields } from './format';

/** The rest of the platform team's work: a policy's confirmation e-mail, portal provider admins, the demo operator. */
export const PLATFORM_COMMANDS: readonly Command[] = [
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
