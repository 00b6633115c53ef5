// Shared pieces of the delivery tests: a programmable receiver on 127.0.0.1, subscriptions written
// with SQL, events recorded as the API records them, and a worker whose attempts can be awaited.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { Database, Queryable } from '../../../src/db/database.ts';
import { type AttemptReport, type DeliveryWorker, startDeliveryWorker } from '../../../src/webhooks/delivery-worker.ts';
import { FAN_OUTS_CHANNEL } from '../../../src/webhooks/fan-out.ts';
import { recordEvent } from '../../../src/webhooks/record-event.ts';
import { generateSecret } from '../../../src/webhooks/signature.ts';

export const EVENT_TYPE = 'v1.export-job.created';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the body had arrived. */
  at: number;
  /** Date.now() then. */
  wallClock: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering; the connection is left open. */
  delayMs?: number;
}

export interface TestReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** Resolves when the n-th request has arrived (at once if it has). */
  nth(n: number): Promise<ReceivedRequest>;
  /** The most requests that were open (received, not yet answered or abandoned) at one time. */
  maxOpen(): number;
  close(): Promise<void>;
}

/** An HTTP server that records every request and answers what `answer` says (204 by default). */
export async function startReceiver(
  answer: (request: ReceivedRequest, index: number) => Answer = () => ({ status: 204 }),
): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const waiting = new Map<number, ((r: ReceivedRequest) => void)[]>();
  const timers = new Set<NodeJS.Timeout>();
  let open = 0;
  let maxOpen = 0;
  const server: Server = createServer((request, response) => {
    open++;
    maxOpen = Math.max(maxOpen, open);
    response.on('close', () => open--);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
        wallClock: Date.now(),
      };
      requests.push(received);
      const reply = answer(received, requests.length - 1);
      for (const resolve of waiting.get(requests.length) ?? []) resolve(received);
      waiting.delete(requests.length);
      const send = () => {
        timers.delete(timer);
        if (!response.destroyed) response.writeHead(reply.status, reply.headers).end(reply.body);
      };
      const timer = setTimeout(send, reply.delayMs ?? 0).unref();
      timers.add(timer);
    });
  });
  server.listen(0, '127.0.0.1');
  // Unreferenced, as are its answer timers: a test that fails before closing its receiver still lets
  // the process end. Whatever awaits a request holds a timer of its own (see withDeadline).
  server.unref();
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    maxOpen: () => maxOpen,
    nth(n) {
      const arrived = requests[n - 1];
      if (arrived) return Promise.resolve(arrived);
      const wait = new Promise<ReceivedRequest>((resolve) => waiting.set(n, [...(waiting.get(n) ?? []), resolve]));
      return withDeadline(wait, () => `the receiver got ${requests.length} of ${n} requests`);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface SubscriptionSpec {
  endpointUrl: string;
  companies?: string[];
  owner?: string;
  status?: 'ACTIVE' | 'INACTIVE';
  eventTypes?: string[];
  customHeaders?: Record<string, string>;
  basic?: { username: string; password: string };
  /** Signing secrets, newest last; the older ones get an expiry 24 h ahead, as after a rotation. */
  secrets?: string[];
}

export interface TestSubscription {
  id: string;
  owner: string;
  companies: string[];
  secrets: string[];
}

export async function insertSubscription(db: Queryable, spec: SubscriptionSpec): Promise<TestSubscription> {
  const owner = spec.owner ?? randomUUID();
  const companies = spec.companies ?? [randomUUID()];
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO subscriptions (owner, companies, status, event_types, endpoint_url, custom_headers,
       auth_type, basic_username, basic_password)
     VALUES ($1, $2::uuid[], $3, $4::text[], $5, $6::jsonb, $7, $8, $9) RETURNING id`,
    [
      owner,
      companies,
      spec.status ?? 'ACTIVE',
      spec.eventTypes ?? [EVENT_TYPE],
      spec.endpointUrl,
      JSON.stringify(spec.customHeaders ?? {}),
      spec.basic ? 'BASIC' : 'NONE',
      spec.basic?.username ?? null,
      spec.basic?.password ?? null,
    ],
  );
  if (!row) throw new Error('no subscription inserted');
  const secrets = spec.secrets ?? [generateSecret()];
  for (const [i, secret] of secrets.entries()) {
    const current = i === secrets.length - 1;
    await db.query(
      `INSERT INTO subscription_secrets (subscription_id, secret, created_at, expires_at)
       VALUES ($1, $2, now() + $3 * interval '1 millisecond', ${current ? 'NULL' : "now() + interval '24 hours'"})`,
      [row.id, secret, i],
    );
  }
  return { id: row.id, owner, companies, secrets };
}

/**
 * What the subscription's health row says after a failure streak that started `agoMs` ago with
 * `failedMessages`, its last change as old: auto-disable's due once its period is shorter.
 */
export async function markFailingFor(db: Queryable, id: string, agoMs: number, failedMessages: number) {
  await db.query(
    `INSERT INTO subscription_health (subscription_id, last_attempt_at, last_failed_at, last_failure_status_code,
       consecutive_failures, failing_since, failed_messages_in_streak)
     VALUES ($1, now(), now(), 503, $3 * 8, now() - $2 * interval '1 millisecond', $3)`,
    [id, agoMs, failedMessages],
  );
  await db.query(`UPDATE subscriptions SET updated_at = now() - $2 * interval '1 millisecond' WHERE id = $1`, [
    id,
    agoMs,
  ]);
}

/** Records one export-job event of `companyId` in its own transaction, as the API does. */
export async function emitEvent(db: Database, companyId: string, data: unknown = { id: randomUUID(), companyId }) {
  return db.transaction((tx) => recordEvent(tx, { eventType: EVENT_TYPE, companyId, data }));
}

export interface TestWorker {
  worker: DeliveryWorker;
  attempts: AttemptReport[];
  /** Resolves when `count` attempts of `messageId` (or of any message) have been recorded. */
  recorded(count: number, messageId?: string): Promise<AttemptReport[]>;
  stop(): Promise<void>;
}

export interface TestWorkerOptions {
  scheduleMs?: number[];
  timeoutMs?: number;
  perEndpointConcurrency?: number;
  allowPrivate?: boolean;
  /**
   * No poll while the test runs and no wake-up from another test file's events: a retry that is not
   * yet due when its previous attempt is recorded then comes from its timer or not at all.
   */
  retryByTimerOnly?: boolean;
}

// Longer than any test: the fallback poll never fires while one runs.
const POLL_OUTLASTING_TESTS_MS = 3_600_000;

export async function startTestWorker(db: Database, options: TestWorkerOptions = {}): Promise<TestWorker> {
  const attempts: AttemptReport[] = [];
  const waiters = new Set<() => void>();
  const worker = await startDeliveryWorker({
    db: options.retryByTimerOnly ? hearingOwnEventsOnly(db) : db,
    pollIntervalMs: options.retryByTimerOnly ? POLL_OUTLASTING_TESTS_MS : undefined,
    logger: pino({ level: 'silent' }),
    config: {
      webhookRetrySchedule: options.scheduleMs ?? [20, 20, 20, 20, 20, 20, 20],
      webhookTimeoutMs: options.timeoutMs ?? 2000,
      webhookLeaseMarginMs: 30_000,
      webhookAllowPrivateTargets: options.allowPrivate ?? true,
    },
    perEndpointConcurrency: options.perEndpointConcurrency,
    onAttempt: (report) => {
      attempts.push(report);
      for (const check of waiters) check();
    },
  });
  const matching = (messageId?: string) => attempts.filter((a) => !messageId || a.messageId === messageId);
  return {
    worker,
    attempts,
    recorded(count, messageId) {
      const wait = new Promise<AttemptReport[]>((resolve) => {
        const check = () => {
          const found = matching(messageId);
          if (found.length < count) return;
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      });
      return withDeadline(wait, () => `${matching(messageId).length} of ${count} attempts were recorded`);
    },
    stop: () => worker.stop(),
  };
}

/**
 * `db`, whose listeners hear only the events stored in it. On PostgreSQL every test schema shares
 * the server database's notification channel, so other test files' events would wake the worker.
 * The empty payload of a listener that connected again passes, as does any payload that cannot be
 * checked.
 */
function hearingOwnEventsOnly(db: Database): Database {
  const isOwnEvent = async (payload: string) =>
    payload === '' || (await db.query('SELECT 1 FROM events WHERE id = $1', [payload]).catch(() => [1])).length > 0;
  return {
    ...db,
    // Such a test makes no large change: the fan-outs channel only carries other test files' ones.
    listen: (channel, onNotify) =>
      db.listen(channel, (payload) => {
        if (channel === FAN_OUTS_CHANNEL) return;
        void isOwnEvent(payload).then((own) => {
          if (own) onNotify(payload);
        });
      }),
  };
}

/** `promise`, or a rejection saying `what` after DEADLINE_MS: a test fails rather than hangs. */
const DEADLINE_MS = 15_000;
async function withDeadline<T>(promise: Promise<T>, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`after ${DEADLINE_MS} ms, ${what()}`)), DEADLINE_MS);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export async function messagesOf(db: Queryable, subscriptionId: string) {
  return db.query<{ id: string; eventId: string; status: string; attempts: number }>(
    `SELECT id, event_id AS "eventId", status, attempts FROM messages WHERE subscription_id = $1 ORDER BY created_at, id`,
    [subscriptionId],
  );
}
