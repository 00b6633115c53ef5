// CLIENT spans for the statements run under a recorded span (a sampled request's): the Database
// both backends answer is wrapped once, when tracing runs. A statement with no recorded span
// active (an unsampled request, the delivery worker's claims) costs one check and builds nothing.
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_SYSTEM_NAME,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import type { Database, Queryable, QueryOptions } from '../db/database.ts';
import { recordingSpan, tracer } from './trace-context.ts';

export function traceDatabase(db: Database): Database {
  return {
    ...db,
    query: traceQuery(db.query),
    transaction: (work) => db.transaction((tx) => work({ ...tx, query: traceQuery(tx.query) })),
  };
}

function traceQuery(query: Queryable['query']): Queryable['query'] {
  return <Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<Row[]> => {
    const parent = recordingSpan();
    if (!parent) return query<Row>(sql, params, options);
    // The statement text (parameters apart, never their values) only for a span that is kept.
    const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
    const span = tracer().startSpan(operation, {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL,
        [ATTR_DB_OPERATION_NAME]: operation,
        [ATTR_DB_QUERY_TEXT]: sql,
      },
    });
    return context
      .with(trace.setSpan(context.active(), span), () => query<Row>(sql, params, options))
      .then(
        (rows) => {
          span.end();
          return rows;
        },
        (error: unknown) => {
          span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
          span.end();
          throw error;
        },
      );
  };
}
