import type { RequestHandler } from 'express';
import { findUnstorableJson, JSON_MAX_DEPTH } from '@expedition/contracts';
import { AppError } from './app-error';

/**
 * Mount right after JSON parsing: a body holding a string PostgreSQL cannot store (NUL, an unpaired surrogate) or
 * nesting deeper than `maxDepth` is a 400 `invalid_request` naming the path, before any handler can write half of it.
 */
export function refuseUnstorableJson(maxDepth: number = JSON_MAX_DEPTH): RequestHandler {
  return (req, _res, next) => {
    const found = findUnstorableJson(req.body, maxDepth);
    if (!found) return next();
    next(AppError.badRequest(`Invalid request: ${found.path} ${found.message}`, [found]));
  };
}
