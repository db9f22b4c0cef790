import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The browser entries of contracts (`@expedition/contracts/rules`, `/widget-protocol`, `/widget-boot`) reach no zod and
 * no package at runtime: every value import they make, followed file by file, stays among this lib's zod-free files.
 * Type-only imports (`import type`) are erased by the compiler and cost nothing, so they are not followed.
 */
const ENTRIES = ['rules.ts', 'widget-protocol.ts', 'widget-boot.ts'];

/** Specifiers of the value imports and re-exports of `file` (whole-clause `import type` / `export type` excluded). */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly)
      found.push((node.moduleSpecifier as ts.StringLiteral).text);
    if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly)
      found.push((node.moduleSpecifier as ts.StringLiteral).text);
    if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      found.push(`dynamic ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every file an entry reaches through value imports, and every import that leaves the lib's own relative files. */
export function reach(entry: string): { files: string[]; outside: string[] } {
  const files = new Set<string>();
  const outside: string[] = [];
  const walk = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of valueImports(file)) {
      const target = path.resolve(path.dirname(file), `${spec}.ts`);
      if (spec.startsWith('.') && existsSync(target)) walk(target);
      else outside.push(`${path.basename(file)} → ${spec}`);
    }
  };
  walk(path.join(__dirname, entry));
  return { files: [...files].map((f) => path.relative(__dirname, f)).sort(), outside };
}

describe('the zod-free entries of contracts', () => {
  it.each(ENTRIES)('%s imports no package (no zod) at runtime, only zod-free files of this lib', (entry) => {
    const { files, outside } = reach(entry);
    expect(outside).toEqual([]);
    for (const file of files) expect(readFileSync(path.join(__dirname, file), 'utf8')).not.toMatch(/from ['"]zod['"]/);
  });

  it('follows value imports and skips type-only ones (rules → days, headers, money; widget-protocol and widget-boot → types only)', () => {
    expect(reach('rules.ts').files).toEqual(['days.ts', 'headers.ts', 'money.ts', 'rules.ts']);
    expect(reach('widget-protocol.ts').files).toEqual(['widget-protocol.ts']);
    expect(reach('widget-boot.ts').files).toEqual(['widget-boot.ts']);
    // A schema file is reached for what it is: zod.
    expect(reach('common.schema.ts').outside).toEqual(['common.schema.ts → zod']);
  });
});
