import { AGENT_KEY_COMMANDS } from './agent-keys.commands';
import type { Command } from './command-kit';
import { KEY_COMMANDS } from './keys.commands';
import { OPERATOR_COMMANDS } from './operator.commands';
import { PAYMENT_COMMANDS } from './payments.commands';
import { PLATFORM_COMMANDS } from './platform.commands';

/** Every command of `npm run admin`, in the order `help` lists them. */
export const COMMANDS: readonly Command[] = [
  ...OPERATOR_COMMANDS,
  ...KEY_COMMANDS,
  ...AGENT_KEY_COMMANDS,
  ...PLATFORM_COMMANDS,
  ...PAYMENT_COMMANDS,
];
