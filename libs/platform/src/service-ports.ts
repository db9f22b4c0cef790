import { z } from 'zod';

/**
 * Where every service of the platform listens by default, in ONE place: `PORT_BASE` (default 3000) plus the service's
 * offset, unless its own `*_PORT` is set; its URL is `http://localhost:<port>` unless its own `*_URL` is set. Every
 * app's and tool's config.ts reads the variables with `envVar.portBase()` / `envVar.servicePort()` / `envVar.url()`
 * and resolves them here, so one setting moves every port and every URL consistently (README "Configuration").
 */
export const SERVICES = {
  quoteApi: { offset: 1, portVar: 'QUOTE_API_PORT', urlVar: 'QUOTE_API_URL' },
  embedApi: { offset: 2, portVar: 'EMBED_API_PORT', urlVar: 'EMBED_URL' },
  widget: { offset: 3, portVar: 'WIDGET_PORT', urlVar: 'WIDGET_URL' },
  portal: { offset: 4, portVar: 'PORTAL_PORT', urlVar: 'PORTAL_URL' },
  /** No public URL of its own: the simulated processor posts to it on localhost (SIMULATED_PROCESSOR_WEBHOOK_URL). */
  dispatcher: { offset: 5, portVar: 'DISPATCHER_PORT', urlVar: null },
  /** The demo operator's site of `npm start` (tools/launcher). */
  demo: { offset: 1200, portVar: 'DEMO_PORT', urlVar: 'DEMO_URL' },
} as const;

export type Service = keyof typeof SERVICES;

export const DEFAULT_PORT_BASE = 3000;
const LARGEST_OFFSET = Math.max(...Object.values(SERVICES).map((s) => s.offset));
/** The highest PORT_BASE whose every derived port is still a TCP port (65535 − 1200). */
export const MAX_PORT_BASE = 65535 - LARGEST_OFFSET;

export const PortBaseSchema = z.coerce
  .number()
  .int()
  .min(0)
  .max(MAX_PORT_BASE, `at most ${MAX_PORT_BASE} (PORT_BASE + ${LARGEST_OFFSET}, the demo site's port, is ≤ 65535)`);

type PortVar<S extends Service> = (typeof SERVICES)[S]['portVar'];
type UrlVar<S extends Service> = Extract<(typeof SERVICES)[S]['urlVar'], string>;

/** The services whose `*_PORT` the parsed config `E` read (a config that forgot one does not compile). */
export type PortsReadBy<E> = { [S in Service]: PortVar<S> extends keyof E ? S : never }[Service];
/** The services whose `*_PORT` and `*_URL` (when it has one) the parsed config `E` read. */
export type UrlsReadBy<E> = {
  [S in Service]: PortVar<S> extends keyof E
    ? [UrlVar<S>] extends [never]
      ? S
      : UrlVar<S> extends keyof E
        ? S
        : never
    : never;
}[Service];

/** What a config's schema parsed: PORT_BASE (defaulted) and, per service, its `*_PORT` / `*_URL` (absent: unset). */
export interface PortsEnv {
  readonly PORT_BASE: number;
}

/** The service's port: its `*_PORT` when set, else PORT_BASE + its offset. */
export function resolvePort<E extends PortsEnv, S extends PortsReadBy<E>>(service: S, env: E): number {
  return portOf(service, env);
}

/** The service's base URL without a trailing slash: its `*_URL` when set, else http://localhost:<resolvePort>. */
export function resolveUrl<E extends PortsEnv, S extends UrlsReadBy<E>>(service: S, env: E): string {
  const urlVar = SERVICES[service].urlVar;
  const given = urlVar === null ? undefined : read(env, urlVar);
  return (typeof given === 'string' ? given : `http://localhost:${portOf(service, env)}`).replace(/\/+$/, '');
}

function portOf(service: Service, env: PortsEnv): number {
  const given = read(env, SERVICES[service].portVar);
  return typeof given === 'number' ? given : env.PORT_BASE + SERVICES[service].offset;
}

function read(env: PortsEnv, name: string): unknown {
  return (env as unknown as Record<string, unknown>)[name];
}
