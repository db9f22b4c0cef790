/**
 * A linter for the Dockerfiles `nx build <app>` writes (tools/build/dockerfile.cjs): no container engine runs on our
 * machines, so the rules an image must meet are checked on the text. Returns one problem per broken rule.
 */

export interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions with line continuations joined and comments dropped. */
export function parseDockerfile(text: string): Instruction[] {
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (current === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logical.push(current + line);
    current = '';
  }
  if (current.trim() !== '') logical.push(current.trim());
  return logical.map((line) => {
    const space = line.search(/\s/);
    return space < 0
      ? { keyword: line.toUpperCase(), args: '' }
      : { keyword: line.slice(0, space).toUpperCase(), args: line.slice(space + 1).trim() };
  });
}

/** Names that hold secrets or connection strings: never given a value in an image. */
const SECRET_NAME = /SECRET|PASSWORD|PASSWD|TOKEN|_KEY(S)?\b|KEYS?$|DATABASE_URL|REDIS_URL|SMTP_URL|CREDENTIAL/i;

/** `ENV A=1 B=2` / `ENV A 1` / `ARG A=1` → [name, value?] pairs. */
function assignments(ins: Instruction): Array<[string, string | undefined]> {
  if (ins.keyword === 'ARG') {
    const [name, value] = ins.args.split('=');
    return [[name!.trim(), value]];
  }
  if (!ins.args.includes('=')) {
    const [name, ...rest] = ins.args.split(/\s+/);
    return [[name!, rest.join(' ')]];
  }
  return [...ins.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|\S*)/g)].map((m) => [m[1]!, m[2]]);
}

export function lintDockerfile(text: string): string[] {
  const problems: string[] = [];
  const ins = parseDockerfile(text);
  const all = (keyword: string) => ins.filter((i) => i.keyword === keyword);

  const from = all('FROM');
  if (from.length !== 1 || !/^node:20(\.\d+)*-slim(@sha256:[0-9a-f]{64})?$/.test(from[0]!.args.split(/\s+/)[0] ?? '')) {
    problems.push('FROM: one stage from node:20-slim');
  }
  const env = all('ENV').flatMap(assignments);
  if (!env.some(([name, value]) => name === 'NODE_ENV' && value === 'production'))
    problems.push('ENV: NODE_ENV=production');
  for (const [name, value] of [...env, ...all('ARG').flatMap(assignments)]) {
    if (SECRET_NAME.test(name))
      problems.push(
        `ENV/ARG ${name}: secrets and connection strings come from the environment at run time, never from the image${value ? ' (a value is baked in)' : ''}`,
      );
  }
  const runs = all('RUN').map((i) => i.args);
  if (!runs.some((r) => /\bnpm ci\b/.test(r) && /--omit=dev\b/.test(r)))
    problems.push('RUN: npm ci --omit=dev of the pruned manifest');
  if (!all('COPY').some((i) => /\bpackage-lock\.json\b/.test(i.args)))
    problems.push('COPY: package-lock.json (npm ci installs from it)');
  const users = all('USER');
  const user = users.at(-1)?.args.split(':')[0]?.trim();
  if (!user) problems.push('USER: the image must not run as root (no USER)');
  else if (user === 'root' || user === '0') problems.push(`USER: must not be root (${user})`);
  else if (!/^[1-9]\d*$/.test(user))
    problems.push(`USER: numeric uid, so that Kubernetes' runAsNonRoot can verify it (${user})`);
  const userIndex = ins.findIndex((i) => i === users.at(-1));
  if (userIndex >= 0 && ins.slice(userIndex).some((i) => i.keyword === 'RUN'))
    problems.push('USER: set after the last RUN');
  const health = all('HEALTHCHECK');
  if (health.length !== 1 || !/\/healthz\b/.test(health[0]!.args) || /^NONE$/i.test(health[0]!.args))
    problems.push('HEALTHCHECK: one, on /healthz');
  const cmd = all('CMD').at(-1) ?? all('ENTRYPOINT').at(-1);
  if (!cmd || !/main\.js/.test(cmd.args)) problems.push('CMD: node main.js');
  if (all('EXPOSE').length === 0) problems.push('EXPOSE: the app port');
  if (all('ADD').length > 0) problems.push('ADD: use COPY (no remote or archive sources)');
  return problems;
}
