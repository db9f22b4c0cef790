import type { OperatorView, PublishableKeyView, SecretKeyView } from '@expedition/operators';

// Human-readable output. Machines use --json, so these may change freely.

export function formatOperator(op: OperatorView): string {
  return formatFields([
    ['id', op.id],
    ['name', op.name],
    ['status', op.status],
    ['embedding', op.embeddingEnabled ? 'enabled' : 'disabled'],
    ['commission', `${op.commissionRateBps} bps (${formatPercent(op.commissionRateBps)})`],
    ['webhook url', op.webhookUrl ?? '-'],
    ['webhook secret', op.webhookSecretSet ? 'set' : '-'],
    ['contact email', op.contactEmail ?? '-'],
    ['website', op.websiteUrl ?? '-'],
    ['created', op.createdAt.toISOString()],
  ]);
}

export function formatOperatorTable(ops: readonly OperatorView[]): string {
  if (ops.length === 0) return 'No operators yet. Create one with: npm run admin -- operator:create --name "…"';
  return formatTable(
    ['ID', 'STATUS', 'EMBEDDING', 'BPS', 'NAME'],
    ops.map((op) => [op.id, op.status, op.embeddingEnabled ? 'on' : 'off', String(op.commissionRateBps), op.name]),
  );
}

export function formatKey(key: PublishableKeyView): string {
  return formatFields([
    ['key', key.key],
    ['id', key.id],
    ['operator', key.operatorId],
    ['mode', key.mode],
    ['label', key.label ?? '-'],
    ['state', key.state],
    ...(key.expiresAt ? ([['expires', key.expiresAt.toISOString()]] as const) : []),
    ...(key.revokedAt ? ([['revoked', key.revokedAt.toISOString()]] as const) : []),
  ]);
}

export function formatKeyTable(keys: readonly PublishableKeyView[]): string {
  if (keys.length === 0) return 'No publishable keys.';
  return formatTable(
    ['ID', 'MODE', 'STATE', 'KEY', 'LABEL', 'UNTIL'],
    keys.map((k) => [k.id, k.mode, k.state, k.key, k.label ?? '-', (k.revokedAt ?? k.expiresAt)?.toISOString() ?? '-']),
  );
}

export function formatSecretKeyTable(keys: readonly SecretKeyView[]): string {
  if (keys.length === 0) return 'No secret keys.';
  return formatTable(
    ['ID', 'MODE', 'PREFIX', 'CREATED', 'REVOKED'],
    keys.map((k) => [k.id, k.mode, k.prefix, k.createdAt.toISOString(), k.revokedAt?.toISOString() ?? '-']),
  );
}

export function formatList(items: readonly string[], empty: string): string {
  return items.length === 0 ? empty : items.map((item) => `  ${item}`).join('\n');
}

export function formatFields(fields: readonly (readonly [string, string])[]): string {
  const width = Math.max(...fields.map(([name]) => name.length));
  return fields.map(([name, value]) => `  ${`${name}:`.padEnd(width + 2)}${value}`).join('\n');
}

export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function formatPercent(bps: number): string {
  return `${(bps / 100).toFixed(2).replace(/\.?0+$/, '')} %`;
}
