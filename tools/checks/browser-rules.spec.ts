import { BROWSER_APPS, browserRuleProblems, restatedRules } from './browser-rules';

const frame = BROWSER_APPS[0].values;
const portal = BROWSER_APPS[1].values;

describe('browser code reads the rules entry (@expedition/contracts/rules)', () => {
  it('the widget frame and the portal UI restate no limit, sandbox value or e-mail pattern', () => {
    expect(browserRuleProblems()).toEqual([]);
  });

  it('finds what the frame restated before it read the entry (lines of its validation.ts, sandbox.ts, quote-form.tsx)', () => {
    const before = [
      'const DAY = 86_400_000;',
      'const EMAIL = /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/;',
      "if (start !== undefined && end > start + 365 * DAY) errors.endDate = 'Trips can last at most 365 days.';",
      'if (age < 0 || age > 120) errors.age = 1;',
      'if (cost > 10_000_000) errors.tripCost = 1;',
      'if (values.email.trim().length > 254) errors.email = 1;',
      "export const SANDBOX = { quoteErrorEmail: 'quote-error@sandbox.test', quoteErrorTripCost: 13013 };",
      "export const TEST_CARDS = [{ number: '4242 4242 4242 4242', outcome: 'succeeds' }];",
      'export const Age = () => <input type="number" min={0} max={120} step={1} />;',
    ].join('\n');
    expect(restatedRules('old.tsx', before, frame)).toEqual([
      'old.tsx:1 86_400_000 (a rule value)',
      'old.tsx:2 /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/ (EMAIL_SHAPE)',
      'old.tsx:3 "365" in text (a rule value)',
      'old.tsx:4 120 (a rule value)',
      'old.tsx:5 10_000_000 (a rule value)',
      'old.tsx:6 254 (a rule value)',
      'old.tsx:7 "quote-error@sandbox.test" (a sandbox value)',
      'old.tsx:7 13013 (a rule value)',
      'old.tsx:8 "4242 4242 4242 4242" (a sandbox value)',
      'old.tsx:9 120 (a rule value)',
    ]);
  });

  it('flags a limit restated in JSX, a comparison or text, and lets a read of the entry or a 0/1 bound pass', () => {
    const sample = [
      "import { PORTAL_LIMITS } from '@expedition/contracts/rules';",
      'export const A = () => <input minLength={12} maxLength={PORTAL_LIMITS.maxPersonName} min={0} />;',
      'export const ok = (n: number) => n > 168 || n < 1;',
      "export const hint = 'Overlap of at most 168 hours, at least 12 characters';",
      'export const fine = (n: number) => n > PORTAL_LIMITS.maxSecretOverlapHours && n * 12 > 0;',
    ].join('\n');
    expect(restatedRules('x.tsx', sample, portal)).toEqual([
      'x.tsx:2 12 (a rule value)',
      'x.tsx:3 168 (a rule value)',
      'x.tsx:4 "168" in text (a rule value)',
    ]);
  });
});
