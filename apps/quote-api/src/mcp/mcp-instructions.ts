import { agentRules, describeDefaultDurations } from '@expedition/contracts';
import { listDestinations } from '@expedition/domain-pricing';

/** Each destination's default trip duration, as the tools tell agents to assume it. */
export const defaultDurations = () => describeDefaultDurations({ destinations: listDestinations() });

/** The rules for agents (`agentRules`, as /llms.txt gives them: docs/contract.md, Discovery), worded for tools. */
export function mcpInstructions(): string {
  const catalog = { destinations: listDestinations() };
  const [order, durations, ages, , disclaimer] = agentRules(catalog);
  return [
    `Expedition travel insurance for remote trips (${catalog.destinations.map((d) => d.name).join(', ')}): quote, compare, and buy.`,
    order,
    durations,
    ages,
    'Call create_quote, present the recommended plan first (plans[0], isRecommended=true), then the alternatives. ' +
      'When the traveler wants to buy, call create_checkout_link and give them the checkoutUrl (valid 30 minutes; ' +
      'creating it charges nothing, the person pays there), or call purchase only if you hold a payment wallet and ' +
      'the traveler asked you to pay.',
    disclaimer,
    'After a purchase, get_policy shows the policy to whoever holds its accessToken (from the purchase receipt); ' +
      'give the traveler the documentUrl (their certificate, PDF) and keep the token private.',
    "Pass an email or names only with the traveler's agreement.",
  ].join('\n');
}

/**
 * The quote conversation asked of agents (the rules of `mcpInstructions`), as the user message of the
 * `quote_conversation` prompt, with what the traveler already said when the client passes it.
 */
export function quoteConversationPrompt(travelerRequest?: string): string {
  const [order, durations, ages, , disclaimer] = agentRules({ destinations: listDestinations() });
  const steps = [
    'Help me buy expedition travel insurance with the tools of the expedition-insurance server. Walk the conversation like this:',
    `1. ${order} Ask only for what is still missing, one question at a time.`,
    `2. ${durations}`,
    `3. ${ages}`,
    '4. Call create_quote. Present the recommended plan first (plans[0], isRecommended=true) with its price and main ' +
      'limits, then the alternatives briefly. Prices hold until expiresAt.',
    `5. ${disclaimer}`,
    '6. When I choose a plan, call create_checkout_link and give me the checkoutUrl (valid 30 minutes; I pay there, ' +
      'nothing is charged before). Use purchase only if you hold a payment wallet and I asked you to pay.',
  ];
  if (travelerRequest?.trim()) steps.push('', `What I have said so far: ${travelerRequest.trim()}`);
  return steps.join('\n');
}
