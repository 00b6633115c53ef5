import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';

/** The Fastify instance routes are registered on, typed by their TypeBox schemas. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What route modules need from the outside world. */
export interface RouteDeps {
  db: Database;
  /** The settings routes read; more join as routes need them. */
  config: Pick<
    Config,
    'exportJobTtlSeconds' | 'webhookAllowPrivateTargets' | 'webhookMaxSubscriptionsPerTenant' | 'webhookRetentionMs'
  >;
}
