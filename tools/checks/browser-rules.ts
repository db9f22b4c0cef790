import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {
  DAY_MS,
  EMAIL_MAX_LENGTH,
  EMAIL_SHAPE,
  EMBED_SANDBOX_OPTIONS_PENDING_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST,
  PORTAL_LIMITS,
  QUOTE_LIMITS,
  TEST_CARDS,
  TRIP_DATE_WINDOW,
  cardNumberInGroups,
} from '@expedition/contracts/rules';

/**
 * No browser file restates a rule of `@expedition/contracts/rules`: the widget frame and the portal UI read each limit,
 * sandbox value and pattern from the entry. A restated rule is, in a shipped (non-spec) source file:
 * - a numeric literal equal to one of the app's rule values as a JSX `min`/`max`/`minLength`/`maxLength` or as an
 *   operand of `<`, `<=`, `>`, `>=` (0 and 1 are natural bounds, not rules);
 * - anywhere, a literal equal to a distinctive value (≥ 1000: trip cost, sandbox trip cost, a day in ms, bps);
 * - a whole number ≥ 120 of the app's rules inside message text ("at most 200 characters");
 * - a string holding a sandbox e-mail or a test card, or a regex literal equal to EMAIL_SHAPE.
 * Each app is checked against its own rules (the frame against the quote rules, the portal against the portal's), so
 * a card-expiry month (12) in the frame is not mistaken for the portal's minimum password length.
 */
export const ROOT = path.resolve(__dirname, '..', '..');

const numbers = (...groups: Record<string, number>[]) => groups.flatMap((g) => Object.values(g));

export const BROWSER_APPS = [
  {
    name: 'widget-frame',
    dir: 'apps/widget-iframe/frame/src',
    values: [...numbers(QUOTE_LIMITS, TRIP_DATE_WINDOW), EMAIL_MAX_LENGTH, EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST, DAY_MS],
  },
  { name: 'portal-ui', dir: 'apps/operator-portal/ui/src', values: [...numbers(PORTAL_LIMITS), EMAIL_MAX_LENGTH] },
] as const;

const STRINGS = [
  EMBED_SANDBOX_QUOTE_ERROR_EMAIL,
  EMBED_SANDBOX_OPTIONS_PENDING_EMAIL,
  ...Object.values(TEST_CARDS).flatMap((digits) => [digits, cardNumberInGroups(digits)]),
];
const LIMIT_ATTRIBUTES = new Set(['min', 'max', 'minLength', 'maxLength']);
const COMPARISONS = new Set([
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
]);

/** Every restated rule in one source text, as `file:line what`. */
export function restatedRules(file: string, text: string, values: readonly number[]): string[] {
  const rules = new Set(values.filter((v) => v > 1));
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const report = (node: ts.Node, what: string) =>
    found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`);

  const visit = (node: ts.Node) => {
    if (ts.isNumericLiteral(node)) {
      const value = Number(node.text);
      const parent = node.parent;
      const inJsxLimit =
        ts.isJsxExpression(parent) &&
        ts.isJsxAttribute(parent.parent) &&
        LIMIT_ATTRIBUTES.has(parent.parent.name.getText(source));
      const compared = ts.isBinaryExpression(parent) && COMPARISONS.has(parent.operatorToken.kind);
      if (rules.has(value) && (inJsxLimit || compared || value >= 1000))
        report(node, `${node.getText(source)} (a rule value)`);
    } else if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const hit = STRINGS.find((s) => node.text.includes(s));
      if (hit) report(node, `"${hit}" (a sandbox value)`);
      for (const token of node.text.match(/\d[\d,_]*\d|\d/g) ?? []) {
        const value = Number(token.replace(/[,_]/g, ''));
        if (value >= 120 && rules.has(value)) report(node, `"${token}" in text (a rule value)`);
      }
    } else if (node.kind === ts.SyntaxKind.RegularExpressionLiteral && node.getText(source) === String(EMAIL_SHAPE)) {
      report(node, `${node.getText(source)} (EMAIL_SHAPE)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.spec\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** Every restated rule in the shipped sources of the browser apps (empty when each reads the rules entry). */
export function browserRuleProblems(): string[] {
  return BROWSER_APPS.flatMap((app) =>
    sourceFiles(path.join(ROOT, app.dir)).flatMap((file) =>
      restatedRules(path.relative(ROOT, file), readFileSync(file, 'utf8'), app.values),
    ),
  );
}
