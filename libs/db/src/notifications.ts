import { Client, type ClientConfig, type Notification } from 'pg';

/**
 * Wake-ups from PostgreSQL `LISTEN/NOTIFY`. The triggers of migration `…_notify_outbox_and_options` send
 * `pg_notify(channel, <schema of the table>)` once per inserting statement; workers subscribe here and run a round
 * at once instead of waiting for their next poll. Polling stays on as the safety net (a notification is lost while
 * the listening connection is down) and as PGlite's only mode (PGlite has no second connection to listen on).
 */
export const NOTIFY_CHANNELS = {
  /** An insert into `webhook_events` (the policy.issued outbox): the delivery workers. */
  outbox: 'expedition_outbox',
  /** An insert of quotes with `options_status = 'pending'`: the options workers. */
  quoteOptions: 'expedition_quote_options',
} as const;
export type NotifyChannel = (typeof NOTIFY_CHANNELS)[keyof typeof NOTIFY_CHANNELS];

export interface Notifications {
  /** Calls `onNotify` on every notification on `channel` for this database's schema; returns the unsubscribe. */
  subscribe(channel: NotifyChannel, onNotify: () => void): () => void;
  /** True while the dedicated LISTEN connection is up (while false, only polling delivers). */
  readonly connected: boolean;
  close(): Promise<void>;
}

export interface PgNotificationsOptions {
  client: ClientConfig;
  /** When set, only notifications whose payload is this schema are passed on (tests share one database across schemas). */
  schema?: string;
  /** Pause before reconnecting after the connection failed or dropped (default 1 s). */
  reconnectDelayMs?: number;
  onError?: (err: unknown) => void;
  /** Tests: reports every (re)connection once it listens. */
  onListening?: () => void;
  /** Tests: the client factory. */
  connect?: (config: ClientConfig) => Client;
}

/**
 * One dedicated `pg` client that LISTENs on every channel someone subscribed to, connected lazily on the first
 * subscription and reconnected after any error or drop (with `reconnectDelayMs` between tries). Each reconnection
 * also wakes every subscriber once, since notifications sent while it was down were lost.
 */
export function createPgNotifications(options: PgNotificationsOptions): Notifications {
  const listeners = new Map<string, Set<() => void>>();
  const reconnectDelayMs = options.reconnectDelayMs ?? 1_000;
  const connect = options.connect ?? ((config: ClientConfig) => new Client(config));
  let client: Client | null = null;
  let connected = false;
  let closed = false;
  let starting: Promise<void> | null = null;
  let retry: NodeJS.Timeout | null = null;

  const wakeAll = () => listeners.forEach((set) => set.forEach((fn) => fn()));

  function onNotification(msg: Notification): void {
    if (options.schema !== undefined && msg.payload !== options.schema) return;
    listeners.get(msg.channel)?.forEach((fn) => fn());
  }

  function scheduleReconnect(): void {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void start();
    }, reconnectDelayMs);
    retry.unref();
  }

  function dropped(c: Client, err?: unknown): void {
    if (client !== c) return;
    client = null;
    connected = false;
    if (err !== undefined) options.onError?.(err);
    c.removeAllListeners('notification');
    void c.end().catch(() => undefined);
    scheduleReconnect();
  }

  function start(): Promise<void> {
    if (closed || client) return Promise.resolve();
    if (starting) return starting;
    const c = connect(options.client);
    client = c;
    c.on('error', (err) => dropped(c, err));
    c.on('end', () => dropped(c));
    c.on('notification', onNotification);
    starting = (async () => {
      try {
        await c.connect();
        for (const channel of listeners.keys()) await c.query(`LISTEN "${channel}"`);
        if (client !== c) return;
        connected = true;
        options.onListening?.();
        wakeAll();
      } catch (err) {
        dropped(c, err);
      } finally {
        starting = null;
      }
    })();
    return starting;
  }

  return {
    subscribe(channel, onNotify) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        if (connected)
          void client?.query(`LISTEN "${channel}"`).catch((err: unknown) => client && dropped(client, err));
      }
      set.add(onNotify);
      void start();
      return () => {
        set.delete(onNotify);
      };
    },
    get connected() {
      return connected;
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      retry = null;
      await starting;
      const c = client;
      client = null;
      connected = false;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => undefined);
        await c.end().catch(() => undefined);
      }
    },
  };
}
