// What the delivery log API does, one function per operation. A subscription's log is visible to
// those who reach the subscription (reachOf): any other is answered like a missing one.
import type { Principal } from '../auth/principal.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { Page, PagePosition } from '../db/keyset-page.ts';
import { ApiError, validationError } from '../http/problem.ts';
import { reachOf, subscriptionNotFound } from '../subscriptions/operations.ts';
import { findStatusReason, subscriptionInReach } from '../subscriptions/store.ts';
import * as store from './delivery-log-store.ts';
import { type HealthView, readHealth } from './health-store.ts';
import { insertRecovery, type RecoveryView } from './recovery-store.ts';

async function assertOwnSubscription(db: Queryable, principal: Principal, subscriptionId: string): Promise<void> {
  if (!(await subscriptionInReach(db, subscriptionId, reachOf(principal)))) throw subscriptionNotFound(subscriptionId);
}

const messageNotFound = (messageId: string) => new ApiError('MESSAGE_NOT_FOUND', `No message ${messageId}`);

export async function listMessages(
  db: Database,
  principal: Principal,
  subscriptionId: string,
  status: store.MessageStatus | null,
  position: PagePosition,
): Promise<Page> {
  await assertOwnSubscription(db, principal, subscriptionId);
  return store.listMessages(db, subscriptionId, status, position);
}

/** One message with the payload its notifications carry. */
export async function getMessage(
  db: Database,
  principal: Principal,
  subscriptionId: string,
  messageId: string,
): Promise<store.MessageView & { payload: store.MessagePayload }> {
  await assertOwnSubscription(db, principal, subscriptionId);
  const message = await store.findMessageWithPayload(db, subscriptionId, messageId);
  if (!message) throw messageNotFound(messageId);
  return message;
}

/** A page of a message's attempts, by attempt number. */
export async function listAttempts(
  db: Database,
  principal: Principal,
  subscriptionId: string,
  messageId: string,
  position: PagePosition,
): Promise<Page> {
  await assertOwnSubscription(db, principal, subscriptionId);
  if (!(await store.findMessage(db, subscriptionId, messageId))) throw messageNotFound(messageId);
  return store.listAttempts(db, messageId, position);
}

/** 202: the message is sent again now (same webhook-id), with the whole schedule ahead of it. */
export async function resendMessage(
  db: Database,
  principal: Principal,
  subscriptionId: string,
  messageId: string,
): Promise<store.MessageView> {
  await assertOwnSubscription(db, principal, subscriptionId);
  const message = await db.transaction((tx) => store.resendMessage(tx, subscriptionId, messageId));
  if (!message) throw messageNotFound(messageId);
  return message;
}

/** The subscription's delivery health: last delivery and failure, the failure streak, the last day. */
export async function getHealth(db: Database, principal: Principal, subscriptionId: string): Promise<HealthView> {
  await assertOwnSubscription(db, principal, subscriptionId);
  return readHealth(db, subscriptionId);
}

export interface RecoveryWindow {
  since: string;
  until: string | null;
}

/**
 * 202: the subscription's messages created in [since, until) that ended failed are queued again by
 * the workers, in batches (recovery-store.ts). Answers how many there are now. 409 while the service
 * keeps the subscription stopped: its messages would be failed again unsent.
 */
export async function recoverMessages(
  db: Database,
  principal: Principal,
  subscriptionId: string,
  { since, until }: RecoveryWindow,
): Promise<RecoveryView> {
  const reason = await findStatusReason(db, subscriptionId, reachOf(principal));
  if (reason === undefined) throw subscriptionNotFound(subscriptionId);
  if (reason !== null) {
    throw new ApiError(
      'SUBSCRIPTION_DISABLED',
      reason === 'CLIENT_REVOKED'
        ? 'The client of this subscription is revoked: nothing is sent to it'
        : 'The service disabled this subscription (its endpoint kept failing): make it ACTIVE with a PUT, then recover',
    );
  }
  const recovery = await db.transaction((tx) => insertRecovery(tx, subscriptionId, since, until));
  if (recovery === 'SINCE_IN_FUTURE') {
    throw validationError([{ path: '/since', message: 'must not be in the future', in: 'body' }]);
  }
  if (recovery === 'EMPTY_WINDOW') {
    throw validationError([{ path: '/until', message: 'must be after since', in: 'body' }]);
  }
  return recovery;
}
