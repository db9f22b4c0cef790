import type { ParseArgsConfig } from 'node:util';
import type { AccountService, DemoOperatorInfo, OperatorService } from '@expedition/operators';
import type { AgentKeyService } from './agent-keys';
import type { PolicyMailAdmin } from './policy-mails';
import type { PaymentsAdmin } from './payments';

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
  /** The money path on the processor the environment names (PAYMENTS_PROVIDER): the reconciler and its look-ups. */
  payments(): PaymentsAdmin;
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

export const str = { type: 'string' } as const;

export function arg(ctx: CommandContext, index: number): string {
  return ctx.args[index] ?? '';
}

export function opt(ctx: CommandContext, name: string): string | undefined {
  const value = ctx.options[name];
  return typeof value === 'string' ? value : undefined;
}

export function int(ctx: CommandContext, name: string): number | undefined {
  const value = opt(ctx, name);
  return value === undefined ? undefined : Number(value);
}
