import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/** How Express itself is entered: `app.handle(req, res, done)`. */
export type RequestEntry = (req: IncomingMessage, res: ServerResponse, done?: (err?: unknown) => void) => void;

/**
 * Puts `route` in front of the app: `app(req, res)` and a parent app both call `app.handle`, so that is where a request
 * reaches the app before Express has touched it. `route` gets Express's own entry, for every request it does not
 * answer. For the routes answered before Express (the embed poll of a ready quote, the processor-event intake).
 */
export function answerBeforeExpress(app: Express, route: (express: RequestEntry) => RequestEntry): void {
  const entry = app as Express & { handle: RequestEntry };
  entry.handle = route(entry.handle.bind(app));
}
