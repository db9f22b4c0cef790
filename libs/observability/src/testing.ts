/**
 * Test helpers for Prometheus text (the `/metrics` body): reading one series regardless of prom-client's label order.
 */

/** The value of the first series `name` whose labels include every pair of `labels`; undefined when none matches. */
export function seriesValue(
  metricsText: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of metricsText.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}
