import { loadBenchConfig, type BenchConfig } from './config';
import { measureDispatcher, STEADY_RATE, type DispatcherFigures } from './dispatcher-throughput';
import { BATCH, WORKERS } from './dispatcher.server';
import { infoRow, maxRow, minRow, notMeasured, pairedRatioRow, type BenchRow } from './table';

/**
 * The dispatcher's rows of the table: delivery ÷ the hand-written worker (goal ≥ 0.8), event → delivered under a
 * burst (p99 < 50 ms) and at a steady 100 events/s (p99 < 25 ms), the intake (≥ 800 events/s), and the intake on
 * PGlite beside it (what `npm start` carries).
 */
export async function benchDispatcher(config: Readonly<BenchConfig> = loadBenchConfig()): Promise<BenchRow[]> {
  const f = await measureDispatcher(config, 'postgres');
  const rows = postgresRows(f);
  const pgliteRow = {
    id: 'intake_events_per_sec_pglite',
    figure: 'same intake on PGlite (embedded mode, `npm start`)',
    unit: 'events/s',
    baselineLabel: 'the same on PostgreSQL',
    goal: '—',
  };
  if (config.quick) {
    rows.push(notMeasured(pgliteRow, 'not in a quick run'));
    return rows;
  }
  try {
    // Fewer events: the embedded database is one process's single connection.
    const p = await measureDispatcher(
      { ...config, dispatcher: { ...config.dispatcher, events: Math.min(config.dispatcher.events, 500) } },
      'pglite',
    );
    rows.push(
      infoRow({ ...pgliteRow, ours: p.intakePerSec, baseline: f.intakePerSec, note: `${intakeRounds(p)}; ${p.db}` }),
    );
  } catch (err) {
    rows.push(notMeasured(pgliteRow, `failed: ${(err as Error).message.split('\n')[0]}`));
  }
  return rows;
}

function postgresRows(f: DispatcherFigures): BenchRow[] {
  const how = `${f.db}, ${WORKERS} workers × batch ${BATCH}, ${f.wakeups}`;
  const burst = f.burst;
  const steady = f.steady;
  return [
    pairedRatioRow(
      {
        id: 'dispatcher_delivery',
        figure: 'dispatcher delivery (claim, sign, POST, record)',
        unit: 'deliveries/s',
        baselineLabel: 'hand-written pg + node:http worker, same claim, sign, POST, record',
        note: `${f.drained} events per round${f.unfulfilled ? ` (${f.unfulfilled} not fulfilled by the intake)` : ''}; ${how}`,
      },
      0.8,
      f.drainPairs,
    ),
    infoRow({
      id: 'event_to_delivered_p50',
      figure: 'processor event → policy.issued delivered, p50 (burst)',
      unit: 'ms',
      ours: burst?.p50 ?? null,
      baseline: null,
      baselineLabel: '',
    }),
    maxRow(
      {
        id: 'event_to_delivered_p99',
        figure: 'processor event → policy.issued delivered, p99 (burst)',
        unit: 'ms',
        ours: burst?.p99 ?? null,
        baseline: null,
        baselineLabel: '',
        note: `${burst?.events} events in ${burst?.p99s.length} bursts at intake concurrency 8 (each burst's own p99 ${burst?.p99s.map((p) => p.toFixed(1)).join(', ')} ms), max ${burst?.max.toFixed(1)} ms; ${how}`,
      },
      50,
      'p99 < 50 ms',
    ),
    infoRow({
      id: 'answer_to_delivered_p99',
      figure: 'intake answered (outbox committed) → delivered, p99 (burst): the delivery side',
      unit: 'ms',
      ours: burst?.afterAnswerP99 ?? null,
      baseline: null,
      baselineLabel: '',
      note: `p50 ${burst?.afterAnswerP50.toFixed(1)} ms (negative: delivered before the intake's answer reached its caller)`,
    }),
    maxRow(
      {
        id: 'event_to_delivered_p99_steady',
        figure: `processor event → policy.issued delivered, p99 at a steady ${STEADY_RATE} events/s`,
        unit: 'ms',
        ours: steady?.p99 ?? null,
        baseline: null,
        baselineLabel: '',
        note: `${steady?.events} events, p50 ${steady?.p50.toFixed(1)} ms, max ${steady?.max.toFixed(1)} ms`,
      },
      25,
      'p99 < 25 ms',
    ),
    minRow(
      {
        id: 'intake_events_per_sec',
        figure: 'intake (event → payment, purchase, policy, commission, outbox)',
        unit: 'events/s',
        ours: f.intakePerSec,
        baseline: null,
        baselineLabel: '',
        note: `${intakeRounds(f)}, concurrency 8; ${f.db}; CPU per event: intake ${f.intakeCpuUs.intake.toFixed(0)} µs, load ${f.intakeCpuUs.load.toFixed(0)} µs, PostgreSQL ${f.intakeCpuUs.postgres === null ? 'not readable' : `${f.intakeCpuUs.postgres.toFixed(0)} µs`}`,
      },
      800,
      '≥ 800 events/s',
    ),
  ];
}

/** "median of 3 rounds of 2000 events (812, 845, 901/s) after a warm-up round" (one round, no warm-up, when quick). */
function intakeRounds(f: DispatcherFigures): string {
  const rounds = f.intakeRounds.map((r) => r.toFixed(0)).join(', ');
  return f.intakeRounds.length > 1
    ? `median of ${f.intakeRounds.length} rounds of ${f.events} events (${rounds}/s) after a warm-up round`
    : `one round of ${f.events} events`;
}
