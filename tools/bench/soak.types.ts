/** What the soak's parent (soak.ts), its child (soak-app.server.ts) and its rows (soak.rows.ts) share. */
import type { StreamStats } from './soak.driver';
import type { Point } from './soak.plot';

export const SOAK_APPS = ['quote-api', 'embed-api', 'webhook-dispatcher'] as const;
export type SoakApp = (typeof SOAK_APPS)[number];

/** The first line the child prints. */
export interface SoakAppTargets {
  app: SoakApp;
  pid: number;
  /** The app's base URL. */
  url: string;
  /** Its Prometheus endpoint (the parent scrapes it at every sample, as Prometheus would). */
  metricsUrl: string | null;
  /** GET {controlUrl}/memory → MemoryReport; GET {controlUrl}/snapshot → { file }. */
  controlUrl: string;
}

export interface MemoryReport {
  rss: number;
  heapUsed: number;
  /** VmHWM from /proc/self/status (Linux); null elsewhere. */
  peakRss: number | null;
  /** CPU time of the process so far (user + system), µs: how busy the load kept it. */
  cpuMicros: number;
}

export interface SoakFigures {
  soakSec: number;
  warmupSec: number;
  /** Per app, every sample (heap after GC, RSS). */
  curves: Record<SoakApp, Point[]>;
  /** Per app, VmHWM at the end (null off Linux). */
  peakRss: Record<SoakApp, number | null>;
  /** Per app, its CPU time between the first and the last sample ÷ the time between them (1 = one core). */
  cpuShare: Record<SoakApp, number>;
  /** The requests per second offered (a fifth of the full rates in a quick run). */
  rates: { quotes: number; polls: number; events: number };
  load: Record<'quotes' | 'polls' | 'events', StreamStats>;
  /** policy.issued deliveries that reached the receiver, of the events the intake accepted. */
  deliveries: number;
  /** The ASCII plot of the curves (relative to the repository when inside it). */
  plotFile: string;
}
