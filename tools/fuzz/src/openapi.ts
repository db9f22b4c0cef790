import fc from 'fast-check';
import { fromJsonSchema, type JsonSchema } from './inputs';
import type { Method } from './route-spec';

/**
 * Route tables from our OpenAPI documents (libs/contracts builds them from the zod contracts): per operation its
 * documented statuses, a generator of valid bodies from the request body schema and of valid queries from the query
 * parameters. Suites add headers, seeds and the tables a route writes.
 */
interface OpenApiDoc {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown> };
}

interface OpenApiOperation {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, unknown>;
}

export interface DocumentedOperation {
  method: Method;
  /** `/api/portal/v1/operator/keys/{id}/rotate` */
  path: string;
  operationId: string;
  allowed: number[];
  body?: fc.Arbitrary<unknown>;
  query?: fc.Arbitrary<Record<string, string>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function documentedOperations(document: unknown): DocumentedOperation[] {
  const doc = document as OpenApiDoc;
  const root: JsonSchema = { $defs: (doc.components?.schemas ?? {}) as Record<string, JsonSchema> };
  const out: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const allowed = Object.keys(op.responses ?? {})
        .map(Number)
        .filter((n) => Number.isInteger(n));
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
      const query = queryParams.length
        ? fc.record(
            Object.fromEntries(
              queryParams.map((p) => [
                p.name,
                fromJsonSchema((p.schema ?? {}) as JsonSchema, root).map((v) => String(v)),
              ]),
            ),
            { requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name) },
          )
        : undefined;
      out.push({
        method: method.toUpperCase() as Method,
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        allowed,
        body: bodySchema ? fromJsonSchema(bodySchema as JsonSchema, root) : undefined,
        query: query as fc.Arbitrary<Record<string, string>> | undefined,
      });
    }
  }
  return out;
}
