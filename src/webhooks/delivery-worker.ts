// The delivery worker (docs/decisions/webhook-delivery.md): claims due messages, sends them,
// records every attempt, and makes the messages of large changes that left their fan-out to the
// workers (fan-out.ts). It wakes on the events channel (an event committed), on the fan-outs
// channel, on a timer set for the earliest scheduled retry, when an attempt ends (a slot freed), and
// on a slow poll that catches missed notifications, waiting fan-outs and expired leases of dead
// workers. Several workers, in one process or many, share the queue.
// While the database is out of reach the polls back off; the LISTEN connection's return (or any
// notification) ends the back-off at once (docs/decisions/database-outages.md).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { observeAttempt } from '../ops/attempt-metrics.ts';
import { sendTraced } from '../telemetry/attempt-span.ts';
import { createAttemptRecorder } from './attempt-recorder.ts';
import {
  type ClaimedMessage,
  claimDueMessages,
  millisUntilNextDue,
  type RecordedAttempt,
  recordAttempts,
  releaseLeasesExcept,
  releaseMessages,
  stillToSend,
} from './delivery-store.ts';
import { FAN_OUTS_CHANNEL, fanOutNext } from './fan-out.ts';
import { EVENTS_CHANNEL } from './record-event.ts';
import { type AttemptOutcome, createNotificationSender } from './send-notification.ts';

export interface DeliveryWorkerOptions {
  db: Database;
  config: Pick<
    Config,
    'webhookRetrySchedule' | 'webhookTimeoutMs' | 'webhookAllowPrivateTargets' | 'webhookLeaseMarginMs'
  >;
  logger: Logger;
  /** Names this process's leases; unique per process. */
  workerId?: string;
  /** Attempts in flight at once in this worker. */
  concurrency?: number;
  /** Attempts in flight at once to one subscription, so one slow endpoint cannot take every slot. */
  perEndpointConcurrency?: number;
  /**
   * Attempts in flight at once to all the subscriptions of one tenant (a client for a set of
   * companies), so one tenant's many slow endpoints cannot take every slot. Default: a quarter of
   * `concurrency`, at least the per-endpoint cap.
   */
  perTenantConcurrency?: number;
  /** How long a claim holds a message; past it, another worker may retry it. Default: timeout + lease margin. */
  leaseMs?: number;
  /** The fallback poll, for notifications missed while a connection was down. */
  pollIntervalMs?: number;
  /** Called after each attempt is recorded (tests and metrics); `recorded` is undefined when the lease was lost. */
  onAttempt?: (attempt: AttemptReport) => void;
}

export interface AttemptReport {
  messageId: string;
  subscriptionId: string;
  outcome: AttemptOutcome;
  recorded: RecordedAttempt | undefined;
  /**
   * On a message's first attempt: from its creation (the time of the transaction that recorded its
   * event, on the database's clock) to the start of this attempt, rate waits included.
   */
  firstAttemptDelayMs: number | undefined;
}

export interface DeliveryWorker {
  readonly workerId: string;
  /** Stops claiming, waits for the attempts in flight to be recorded, and lets go of the database. */
  stop(): Promise<void>;
}

const CLAIM_BATCH = 64;
// Attempts sent but not yet recorded, per slot: past it, the worker claims nothing more until the
// database has caught up.
const UNRECORDED_PER_SLOT = 4;
// Passes in a row while every claim came back full; then the next pass waits for a wake-up.
const MAX_CLAIMS_PER_PASS = 64;
// Fan-outs run before a pass's claims (each about 0.1-0.2 s for 1,000 events): a few at a time, so
// that a burst of large changes does not hold back the deliveries already due.
const FAN_OUTS_PER_PASS = 2;
// After a pass fails (the database is out of reach), polls wait 1, 2, 4… poll intervals, at most this.
const MAX_BACKOFF_MS = 5_000;

export async function startDeliveryWorker(options: DeliveryWorkerOptions): Promise<DeliveryWorker> {
  const { db, config, logger } = options;
  const workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const concurrency = options.concurrency ?? 64;
  const perEndpoint = options.perEndpointConcurrency ?? 8;
  const perTenant = options.perTenantConcurrency ?? Math.max(perEndpoint, Math.floor(concurrency / 4));
  const leaseMs = options.leaseMs ?? config.webhookTimeoutMs + config.webhookLeaseMarginMs;
  // An ending attempt claims more work only once this many slots are free, so that a busy worker
  // claims in batches rather than one message per statement.
  const refillAt = Math.max(1, Math.min(CLAIM_BATCH, Math.floor(concurrency / 4)));
  const pollMs = options.pollIntervalMs ?? 1000;
  const log = logger.child({ workerId });
  const recorder = createAttemptRecorder((records) =>
    recordAttempts(db, workerId, records, config.webhookRetrySchedule),
  );
  const sender = createNotificationSender({
    timeoutMs: config.webhookTimeoutMs,
    allowPrivateTargets: config.webhookAllowPrivateTargets,
  });

  // Every attempt until recorded; its slot is given back as soon as its request has an answer.
  const attempts = new Set<Promise<void>>();
  let sending = 0;
  const freeSlots = () => Math.min(concurrency - sending, concurrency * UNRECORDED_PER_SLOT - attempts.size);
  /** Claims more once a sent or recorded attempt has made enough room (see refillAt). */
  const wakeIfRoom = () => {
    if (freeSlots() >= refillAt) wake();
  };
  // Attempts in flight per subscription and per tenant: the claims keep both caps.
  const perSubscription = new Map<string, number>();
  const perTenantInFlight = new Map<string, number>();
  // Messages from their claim until their attempt is recorded (or its recording failed).
  const inFlight = new Set<string>();
  // Set when a claim or a record failed: this worker may hold leases it does not work on.
  let leasesToRelease = false;
  let failedPasses = 0;
  let backOffUntil = 0;
  let stopping = false;
  let passRunning: Promise<void> | undefined;
  let wakeAgain = false;
  let dueTimer: NodeJS.Timeout | undefined;
  // Whether a large change's fan-out may be waiting for the workers: at start, on its notification, on each poll.
  let fanOutsWaiting = true;
  // After a fan-out failed, none is tried before this (notifications do not shorten it).
  let fanOutsBackOffUntil = 0;

  /** Runs a claim pass now, or right after the one running; none while backing off from a failure. */
  function wake(): void {
    if (stopping || Date.now() < backOffUntil) return;
    if (passRunning) {
      wakeAgain = true;
      return;
    }
    passRunning = pass()
      .then(passSucceeded, passFailed)
      .finally(() => {
        passRunning = undefined;
        if (wakeAgain) {
          wakeAgain = false;
          setImmediate(wake);
        }
      });
  }

  /** A notification proves the database answers: no back-off. */
  function wakeOnNotify(): void {
    backOffUntil = 0;
    wake();
  }

  function passSucceeded(): void {
    if (failedPasses > 0) log.info({ failedPasses }, 'delivery resumed: the database answers again');
    failedPasses = 0;
  }

  function passFailed(error: unknown): void {
    failedPasses++;
    leasesToRelease = true;
    const backOffMs = Math.min(pollMs * 2 ** (failedPasses - 1), MAX_BACKOFF_MS);
    backOffUntil = Date.now() + backOffMs;
    // One error per outage; the passes that fail after it only at debug level.
    const level = failedPasses === 1 ? 'error' : 'debug';
    log[level]({ err: error, failedPasses, retryInMs: backOffMs }, 'delivery claim failed; retrying');
  }

  async function pass(): Promise<void> {
    if (leasesToRelease) {
      await releaseLeasesExcept(db, workerId, [...inFlight]);
      leasesToRelease = false;
    }
    if (fanOutsWaiting) await runFanOuts();
    // Before the claims: a message that falls due after this look is due when they run.
    await scheduleNextDue();
    for (let i = 0; i < MAX_CLAIMS_PER_PASS && !stopping; i++) {
      const free = freeSlots();
      if (free <= 0) return; // an attempt ending wakes the worker
      const limit = Math.min(CLAIM_BATCH, free);
      // The claim itself keeps the caps: at most each subscription's and each tenant's free slots.
      const claimed = await claimDueMessages(db, {
        workerId,
        leaseMs,
        limit,
        perSubscription: perEndpoint,
        busy: perSubscription,
        perTenant,
        busyTenants: perTenantInFlight,
      });
      if (stopping) {
        const ids = claimed.map((message) => message.messageId);
        if (ids.length > 0) await releaseMessages(db, workerId, ids);
        return;
      }
      for (const message of claimed) start(message);
      if (claimed.length < limit) return;
    }
  }

  /**
   * Makes the messages of the large changes that left their fan-out to the workers (fan-out.ts), at
   * most FAN_OUTS_PER_PASS before the claims, and wakes every worker for them. Run when one is
   * announced, on each poll and at start. A failed fan-out (a subscription deleted under it, the
   * database gone) stays waiting for the next poll and never stops the claims.
   */
  async function runFanOuts(): Promise<void> {
    if (Date.now() < fanOutsBackOffUntil) return;
    fanOutsWaiting = false;
    try {
      for (let i = 0; i < FAN_OUTS_PER_PASS; i++) {
        const done = await fanOutNext(db);
        if (!done) return;
        log.info(done, 'fan-out made its messages');
        if (done.firstEventId) db.notifyAfterCommit(EVENTS_CHANNEL, done.firstEventId);
      }
      // More may wait: another pass runs right after this one's claims.
      fanOutsWaiting = true;
      wakeAgain = true;
    } catch (error) {
      fanOutsWaiting = true;
      fanOutsBackOffUntil = Date.now() + pollMs;
      log.error({ err: error, retryInMs: pollMs }, 'a fan-out failed; it waits for the next poll');
    }
  }

  /**
   * Sets the timer for the earliest message not yet due, so short retry waits fire on time. Due
   * messages need none: the claims that follow take them, or an ending attempt frees their slot.
   */
  async function scheduleNextDue(): Promise<void> {
    if (stopping || freeSlots() <= 0) return;
    const ms = await millisUntilNextDue(db);
    clearTimeout(dueTimer);
    dueTimer = undefined;
    if (ms === undefined || stopping) return;
    dueTimer = setTimeout(wake, ms);
    dueTimer.unref();
  }

  function start(message: ClaimedMessage): void {
    sending++;
    inFlight.add(message.messageId);
    countUp(perSubscription, message.subscriptionId);
    countUp(perTenantInFlight, message.tenant);
    // Once, however the attempt ends: a check or a send that throws must give its slot back too.
    let slotHeld = true;
    const sent = () => {
      if (!slotHeld) return;
      slotHeld = false;
      sending--;
      countDown(perSubscription, message.subscriptionId);
      countDown(perTenantInFlight, message.tenant);
      wakeIfRoom();
    };
    const attempt = deliver(message, sent).finally(() => {
      attempts.delete(attempt);
      // Before the slot is given back, whose claim pass gives back the leases of those not in flight.
      inFlight.delete(message.messageId);
      sent();
      wakeIfRoom();
    });
    attempts.add(attempt);
  }

  /** Sends, calls `sent` once the answer (or the failure) is in, then records the attempt. */
  async function deliver(message: ClaimedMessage, sent: () => void): Promise<void> {
    const context = { messageId: message.messageId, subscriptionId: message.subscriptionId };
    try {
      // A rated endpoint's request waits for the slot its claim reserved (its lease covers the wait).
      const claimedAt = performance.now();
      if (message.waitMs > 0) {
        await sleep(message.waitMs);
        // While it waited, its subscription may have been disabled or deleted, failing or removing
        // the message: then it is not sent. Or changed (a new URL, say): then it is given back, to
        // be claimed again as the subscription is now.
        const still = await stillToSend(db, workerId, message);
        if (still !== 'send') {
          sent();
          log.debug({ ...context, still }, 'message left unsent after its wait');
          return;
        }
      }
      const sinceCreated = message.ageMs + (performance.now() - claimedAt);
      const outcome = await sendTraced(message, (traceparent) =>
        sender.send(traceparent ? { ...message, traceparent } : message),
      ).finally(sent);
      const recorded = await recorder.record({
        messageId: message.messageId,
        expectedAttempts: message.attempts,
        ...outcome,
      });
      const fields = {
        ...context,
        attempt: recorded?.attempt ?? message.attempts + 1,
        statusCode: outcome.statusCode,
        error: outcome.error,
        durationMs: outcome.durationMs,
      };
      if (!recorded) log.warn(fields, 'delivery lease lost; the attempt was not recorded');
      else if (recorded.status === 'failed') log.warn(fields, 'message failed: no attempts left');
      else if (!outcome.succeeded) log.info(fields, 'delivery attempt failed');
      else log.debug(fields, 'message delivered');
      // Only the recorded first attempt: a message whose first attempt went unrecorded (a lost lease,
      // a crash) is claimed with no attempts again, and must not be counted twice.
      const firstAttemptDelayMs = recorded?.attempt === 1 ? sinceCreated : undefined;
      observeAttempt(outcome, firstAttemptDelayMs);
      options.onAttempt?.({ ...context, outcome, recorded, firstAttemptDelayMs });
    } catch (error) {
      // Unrecorded: the next pass gives the lease back (or it runs out) and the message is sent again
      // with the same webhook-id.
      leasesToRelease = true;
      log.error({ ...context, err: error }, 'recording a delivery attempt failed');
    }
  }

  const unlisten = await db.listen(EVENTS_CHANNEL, wakeOnNotify);
  const unlistenFanOuts = await db
    .listen(FAN_OUTS_CHANNEL, () => {
      fanOutsWaiting = true;
      wakeOnNotify();
    })
    .catch(async (error: unknown) => {
      await unlisten().catch(() => {});
      throw error;
    });
  const poll = setInterval(() => {
    fanOutsWaiting = true;
    wake();
  }, pollMs);
  poll.unref();
  log.info(
    { concurrency, perEndpointConcurrency: perEndpoint, perTenantConcurrency: perTenant },
    'delivery worker started',
  );
  wake();

  return {
    workerId,
    async stop() {
      if (stopping) return;
      stopping = true;
      clearInterval(poll);
      clearTimeout(dueTimer);
      await Promise.all([unlisten().catch(() => {}), unlistenFanOuts().catch(() => {})]);
      await passRunning;
      // Each attempt is bounded by WEBHOOK_TIMEOUT_MS, then recorded.
      await Promise.all(attempts);
      await sender.close();
      log.info('delivery worker stopped');
    },
  };
}

function countUp(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Counts one down, forgetting the key at zero: the claim is passed only the busy ones. */
function countDown(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
