import { type Command, opt, UsageError } from './command-kit';
import { formatFields } from './format';

/** Support's tools for the money path (docs/runbooks.md, "UnrecordedChargesFound"). */
export const PAYMENT_COMMANDS: readonly Command[] = [
  {
    name: 'payments:reconcile',
    args: [],
    usage: 'payments:reconcile',
    summary: 'Resolve unfinished payment attempts from the processor now (what the dispatcher does every minute)',
    options: {},
    run: async (ctx) => {
      const report = await ctx.payments().reconcile();
      const { paid, inFlight, noCharge, skipped } = report.attempts;
      const text = [
        'Reconciled unfinished payments with the processor.',
        formatFields([
          ['attempts that had charged (policy or refund recorded)', String(paid)],
          ['attempts that charged nothing', String(noCharge)],
          ['attempts still unsettled (processor busy or unreachable)', String(inFlight)],
          ['attempts held by a payer right now', String(skipped)],
          ['payments re-checked', String(report.payments.checked)],
          ['of which the processor had charged', String(report.payments.charged)],
        ]),
      ].join('\n');
      return { data: report, text };
    },
  },
  {
    name: 'payments:charges',
    args: [],
    usage: 'payments:charges --quote <quoteId>',
    summary: 'What the processor charged for a quote, and what our records say of each charge (JSON)',
    options: { quote: { type: 'string' } },
    required: ['quote'],
    run: async (ctx) => {
      const quoteId = opt(ctx, 'quote') ?? '';
      if (!/^[0-9a-f-]{36}$/i.test(quoteId)) throw new UsageError(`--quote "${quoteId}" is not a quote id`);
      const result = await ctx.payments().charges(quoteId);
      if (!result) return { data: null, text: `No quote ${quoteId}.`, exitCode: 1 };
      return { data: result, text: JSON.stringify(result, null, 2) };
    },
  },
];
