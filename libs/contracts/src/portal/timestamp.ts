import { z } from 'zod';

// The instants of the operator routes' schemas (operator, webhook, dashboard and audit); not part of the index.
export const Timestamp = z.string().meta({ description: 'RFC 3339 instant.', example: '2026-11-23T12:00:00.000Z' });
export const NullableTimestamp = Timestamp.nullable();
