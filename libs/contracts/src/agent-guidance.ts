/**
 * The rules an AI agent must follow (SERVICE-SPEC §1). They are written into the OpenAPI document so an agent that
 * reads only that document behaves correctly, and the disclaimer is returned with every quote.
 */
export const QUOTE_DISCLAIMER =
  'I am an AI assistant and provide information only. All prices and coverage details are estimates that must be ' +
  'confirmed by a human representative or the policy documents; they are not a binding contract. Questions are ' +
  'logged for analysis and improvement.';

export const DEFAULT_DURATION_DAYS = {
  antarctica: 14,
  arctic: 10,
  'african-safari': 12,
  galapagos: 10,
  svalbard: 8,
} as const;

export const AGENT_RULES = [
  'Collect details in this order, extracting everything the user already said in their first message before asking: ' +
    '(1) destination, (2) departure date and trip duration, (3) number of travelers and each traveler\'s age at ' +
    'departure, (4) total trip cost for ALL travelers in USD, (5) country of residence, and the US state if the ' +
    'residence is US.',
  'If the user gives no duration, use the default: Antarctica 14 days, Arctic 10, African Safari 12, Galápagos 10, ' +
    'Svalbard 8 — and tell the user you assumed it.',
  'Traveler age is a major cost driver: ages 70 and over cost significantly more, so always ask for every age.',
  'Call POST /api/v1/quotes, present the recommended plan first (it is plans[0] and has isRecommended=true), then ' +
    'the alternatives. When the user wants to buy, call POST /api/v1/checkout and give them the checkoutUrl ' +
    '(valid 30 minutes), or pay yourself with POST /api/v1/purchase if you hold a payment wallet.',
  'Always relay this to the user: ' + QUOTE_DISCLAIMER,
] as const;
