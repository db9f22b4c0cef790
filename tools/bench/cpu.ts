import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds spent so far by the local PostgreSQL server's processes (every process named `postgres` this user may
 * read), or null where /proc is absent: tells whether a benchmark waits for the database's CPU or for its own. On a
 * server shared with other clients the figure includes their work.
 */
export function postgresCpuSeconds(): number | null {
  let ticks = 0;
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
        const fields = stat.slice(close + 2).split(' ');
        ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of the whole line)
      } catch {
        // The process ended while we read.
      }
    }
  } catch {
    return null;
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

/** This process's CPU seconds so far (user + system). */
export function processCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}
