/**
 * Every sentence of the policyholder's confirmation e-mail, and nothing else: a translation (issue 22) replaces this
 * module and leaves the layout (confirmation-mail.ts) alone. Values arrive formatted (dates, money); texts that
 * hold a value are functions.
 */
export const CONFIRMATION_TEXTS = {
  subject: (policyNumber: string, test: boolean) => `${test ? '[TEST] ' : ''}Your expedition insurance policy ${policyNumber}`,
  testBanner:
    'TEST MODE: this policy was issued with test keys. No money moved and it is not real cover; the certificate is marked SPECIMEN.',
  greeting: 'Thank you for your purchase. Your expedition insurance policy is issued.',
  heading: (policyNumber: string) => `Policy ${policyNumber}`,
  labels: {
    policyNumber: 'Policy number',
    plan: 'Plan',
    carrier: 'Carrier',
    destination: 'Destination',
    cover: 'Cover',
    travelers: 'Travelers',
    premium: 'Premium paid',
  },
  coverDates: (start: string, end: string) => `${start} to ${end}`,
  coverStartsOnDeparture: 'from departure',
  travelerCount: (count: number) => `${count} ${count === 1 ? 'traveler' : 'travelers'}`,
  ages: (ages: string) => `ages ${ages}`,
  certificateAttached: (filename: string) =>
    `Your certificate of insurance is attached (${filename}). It is your proof of cover: check the names and dates, and carry it with you.`,
  policyLinkIntro: 'Open your policy and download its documents again at any time:',
  policyLinkLabel: 'Open my policy',
  keepPrivate: 'This link opens your policy without a password: do not forward this e-mail.',
  emergencyHeading: 'In an emergency',
  emergencyCall: (provider: string) => `Call ${provider}, 24 hours a day, before you pay for treatment or evacuation where you can:`,
  claimsHeading: 'How to claim',
  questions: (careEmail: string, policyNumber: string) => `Questions or changes: e-mail ${careEmail} with your policy number ${policyNumber}.`,
  footer: 'Expedition Travel Insurance. You receive this e-mail because this address was given when the policy was bought.',
} as const;
