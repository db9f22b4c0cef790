/**
 * The repository documents itself: every relative link in its Markdown (README.md, CHANGELOG.md, docs/, each
 * project's README) must resolve to a file inside the repository, and `#anchors` to a heading of the target; every
 * repository path written in prose as inline code (`tools/e2e/launcher-harness.ts`: a span that starts with a
 * top-level folder of the repository) must exist too (see codePaths for what counts). Nothing may point at ../shared
 * (it exists only beside our CI checkout). `npm run docs:check` (CI) and a spec of the tools project run it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
const SKIP_DIRS = new Set(['node_modules', '.git', '.nx', '.data', 'dist', 'tmp', 'coverage', 'generated']);

export function markdownFiles(root: string = ROOT): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(path.join(dir, entry.name));
      } else if (entry.name.endsWith('.md')) {
        found.push(path.join(dir, entry.name));
      }
    }
  };
  walk(root);
  return found.sort();
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

/** Fenced code blocks blanked out, line structure kept. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ' '));
}

/** Code blocks and inline code spans blanked out: links there are not links. */
function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length));
}

export function linkTargets(markdown: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  withoutCode(markdown)
    .split('\n')
    .forEach((text, i) => {
      for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
        links.push({ line: i + 1, target: match[1]! });
      const reference = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(text);
      if (reference) links.push({ line: i + 1, target: reference[1]! });
    });
  return links;
}

/**
 * Inline-code spans of the prose (fenced blocks left out) that name a repository path: the first segment is a
 * top-level folder of `root` and the span has no placeholder or pattern (`<app>`, `*`, `{a,b}`, `…`, `$VAR`, spaces).
 * A trailing `:line` or `#anchor` is dropped. Paths under a folder .gitignore names (dist/, generated results) are
 * made by a run, not committed, and are left out.
 */
export function codePaths(markdown: string, root: string = ROOT): { line: number; target: string }[] {
  const topLevel = new Set(
    readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !SKIP_DIRS.has(entry.name) && entry.name !== '.git')
      .map((entry) => entry.name),
  );
  const ignored = ignoredFolders(root);
  const found: { line: number; target: string }[] = [];
  withoutFences(markdown)
    .split('\n')
    .forEach((text, i) => {
      for (const match of text.matchAll(/`([^`\n]+)`/g)) {
        const target = match[1]!.replace(/(?::\d+)+$|#.*$/, '');
        if (!/^\.?[\w@-]+(?:\/[\w.@-]+)+\/?$/.test(target)) continue;
        if (!topLevel.has(target.split('/')[0]!)) continue;
        if (ignored.some((folder) => `${target.replace(/\/$/, '')}/`.startsWith(folder))) continue;
        found.push({ line: i + 1, target });
      }
    });
  return found;
}

/** The folders .gitignore names by path (`tools/topology/results/`, `dist/`), each with a trailing slash. */
function ignoredFolders(root: string): string[] {
  const file = path.join(root, '.gitignore');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim().replace(/^\//, ''))
    .filter((line) => line.endsWith('/') && !/[*?[!#]/.test(line));
}

/** One sentence per broken link or code path, `file:line: …`; empty when every one resolves. */
export function findLinkProblems(root: string = ROOT, files: string[] = markdownFiles(root)): string[] {
  const problems: string[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let set = anchorsOf.get(file);
    if (!set) anchorsOf.set(file, (set = headingAnchors(readFileSync(file, 'utf8'))));
    return set;
  };
  for (const file of files) {
    const markdown = readFileSync(file, 'utf8');
    const where = (line: number) => `${path.relative(root, file)}:${line}`;
    markdown.split('\n').forEach((text, i) => {
      if (text.includes('../shared')) {
        problems.push(
          `${where(i + 1)}: refers to ../shared, which exists only beside our CI checkout; use the docs/ of this repository`,
        );
      }
    });
    for (const { line, target } of linkTargets(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
      const [pathPart = '', anchor] = target.split('#', 2) as [string, string | undefined];
      const resolved = pathPart ? path.resolve(path.dirname(file), decodeURIComponent(pathPart.split('?')[0]!)) : file;
      const relative = path.relative(root, resolved);
      if (relative.startsWith('..') || path.isAbsolute(relative)) {
        problems.push(`${where(line)}: ${target} points outside the repository`);
      } else if (!existsSync(resolved)) {
        problems.push(`${where(line)}: ${target} does not exist`);
      } else if (anchor && resolved.endsWith('.md') && statSync(resolved).isFile() && !anchors(resolved).has(anchor)) {
        problems.push(`${where(line)}: ${target} names no heading of ${path.relative(root, resolved)}`);
      }
    }
    for (const { line, target } of codePaths(markdown, root)) {
      if (!existsSync(path.join(root, target)))
        problems.push(`${where(line)}: \`${target}\` (a code path) does not exist`);
    }
  }
  return problems;
}

if (require.main === module) {
  const problems = findLinkProblems();
  for (const problem of problems) console.error(`links: ${problem}`);
  if (!problems.length)
    console.log(`links: every relative link and code path of ${markdownFiles().length} Markdown files resolves`);
  process.exit(problems.length ? 1 : 0);
}
