/** The fields of an error (or of what it wraps) that say what went wrong, whatever library threw it. */
export interface LinkedError {
  code?: unknown;
  /** A PostgreSQL SQLSTATE as @prisma/adapter-pg keeps it (`DriverAdapterError.cause.originalCode`). */
  originalCode?: unknown;
  /** @prisma/adapter-pg's name for the failure (`DriverAdapterError.cause.kind`). */
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

/** `err` and what it wraps, breadth first: `cause` chains and the driver error Prisma keeps in `meta`. */
export function* linkedErrors(err: unknown, limit = 8): Generator<LinkedError> {
  const queue: unknown[] = [err];
  for (let seen = 0; queue.length > 0 && seen < limit; seen++) {
    const e = queue.shift();
    if (typeof e !== 'object' || e === null) continue;
    const linked = e as LinkedError;
    yield linked;
    queue.push(linked.cause, linked.meta?.driverAdapterError);
  }
}
