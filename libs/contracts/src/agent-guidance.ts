/**
 * The rules an AI agent must follow (docs/contract.md, rules for AI agents). They are written into the OpenAPI document
 * so an agent that reads only that document behaves correctly, and the disclaimer is returned with every quote. The
 * facts they quote (destinations, default durations) belong to the catalog (domain-pricing); contracts depends on zod
 * only, so the app that assembles the document passes them in (AgentCatalog) and the text is generated, never copied.
 */
export const QUOTE_DISCLAIMER =
  'I am an AI assistant and provide information only. All prices and coverage details are estimates that must be ' +
  'confirmed by a human representative or the policy documents; they are not a binding contract. Questions are ' +
  'logged for analysis and improvement.';

/** The catalog facts the rules quote, in catalog order (domain-pricing's `listDestinations()` satisfies it). */
export interface AgentCatalog {
  destinations: readonly { name: string; defaultDurationDays: number }[];
}

/** "Antarctica 14 days, Arctic 10, …": the default trip length of every destination, as the catalog has it. */
export function describeDefaultDurations(catalog: AgentCatalog): string {
  return catalog.destinations.map((d, i) => `${d.name} ${d.defaultDurationDays}${i === 0 ? ' days' : ''}`).join(', ');
}

/** "Antarctica, Arctic, … and African Safari". */
export function describeDestinations(catalog: AgentCatalog): string {
  const names = catalog.destinations.map((d) => d.name);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
}

export function agentRules(catalog: AgentCatalog): string[] {
  return [
    'Collect details in this order, extracting everything the user already said in their first message before ' +
      "asking: (1) destination, (2) departure date and trip duration, (3) number of travelers and each traveler's " +
      'age at departure, (4) total trip cost for ALL travelers in USD, (5) country of residence, and the US state if ' +
      'the residence is US.',
    `If the user gives no duration, use the default: ${describeDefaultDurations(catalog)} — and tell the user you ` +
      'assumed it.',
    'Traveler age is a major cost driver: ages 70 and over cost significantly more, so always ask for every age.',
    'Call POST /api/v1/quotes, present the recommended plan first (it is plans[0] and has isRecommended=true), then ' +
      'the alternatives. When the user wants to buy, call POST /api/v1/checkout and give them the checkoutUrl ' +
      '(valid 30 minutes), or pay yourself with POST /api/v1/purchase if you hold a payment wallet.',
    'Always relay this to the user: ' + QUOTE_DISCLAIMER,
  ];
}
