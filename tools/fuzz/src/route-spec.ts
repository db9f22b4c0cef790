import type fc from 'fast-check';
import type { z } from 'zod';
import type { WireBody } from './wire-bodies';

/** What the fuzz engine knows of a route (a route table entry), what it sends and what it reports. */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestInput {
  method: Method;
  path: string;
  headers: Record<string, string>;
  body?: WireBody;
}

export interface RouteSpec {
  /** `POST /api/v1/quotes`; also the replay key of the route's seed. */
  name: string;
  method: Method;
  /** Path template, `{param}` for path parameters. */
  path: string;
  /** Valid values per path parameter (mixed with odd ones). */
  params?: Record<string, fc.Arbitrary<string>>;
  /** Valid query objects (mixed with odd queries). */
  query?: fc.Arbitrary<Record<string, string | string[]>>;
  /** Valid bodies: the contract's generator, often with seeds that reach deep into the route. */
  body?: fc.Arbitrary<unknown>;
  /** The JSON body limit of the app (bytes). */
  bodyLimit?: number;
  /** Headers a real client sends (publishable key, Origin, session cookie, CSRF token…); resolved per request. */
  headers?: () => Record<string, string> | Promise<Record<string, string>>;
  /** The headers function may write (e.g. a fresh session): the write baseline is taken after it. */
  headersWrite?: boolean;
  /** Inputs in flight at once (FUZZ_CONCURRENCY, default 4); 1 for routes whose inputs change the next one's state. */
  concurrency?: number;
  /** Headers computed from the final request (e.g. a valid signature of the body); odd headers still override them. */
  sign?: (input: RequestInput) => Record<string, string>;
  /** Headers to fuzz besides the usual ones (Idempotency-Key, Authorization, Origin…). */
  oddHeaders?: string[];
  /** Statuses the route documents. */
  allowed: number[];
  /** JSON error bodies must match this. */
  errorSchema?: z.ZodType;
  /** Tables the route writes: no row of them inserted, updated or deleted by a refused request. */
  writes: string[];
  /** Statuses that refuse but are documented to write (e.g. a 402 challenge row): table names allowed to grow. */
  refusalWrites?: Partial<Record<number, string[]>>;
}

export interface Violation {
  route: string;
  problem: string;
  status: number;
  input: string;
  response: string;
}

export interface RouteStats {
  route: string;
  inputs: number;
  statuses: Map<number, number>;
  violations: Violation[];
  /** Refused inputs whose "nothing written" was checked. */
  writeChecked?: number;
}
