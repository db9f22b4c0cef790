/** The slice of a pino logger this lib uses; pino's `Logger` satisfies it. */
export interface Logger {
  warn(obj: Record<string, unknown>, msg: string): void;
  debug?(obj: Record<string, unknown>, msg: string): void;
}
