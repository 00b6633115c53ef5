// What the delivery log API does, one function per operation. A subscription's log is visible to
// those who reach the subscription (reachOf): any other is answered like a missing one. Reading it
// needs the read scope of the event types, resending and recovering the scopes that manage them
// (src/subscriptions/rights.ts).
import type { Principal } from '../auth/principal.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { Page, PagePosition } from '../db/keyset-page.ts';
import { ApiError, validationError } from '../http/problem.ts';
import { reachOf, subscriptionNotFound } from '../subscriptions/operations.ts';
import { assertRight, type SubscriptionRight } from '../subscriptions/rights.ts';
import type { SubscriptionStatusReason } from '../subscriptions/schemas.ts';
import { type ReachedSubscription, subscriptionInReach } from '../subscriptions/store.ts';
import * as store from './delivery-log-store.ts';
import type { EventPayload } from './event-payload.ts';
import { type EventType, findEventType } from './event-types.ts';
import { type HealthView, readHealth } from './health-store.ts';
import { recordEvent } from './record-event.ts';
import { insertRecovery, type RecoveryView } from './recovery-store.ts';

/** The subscription, once it is within reach (else 404) and the token holds `right` over its event types (else 403). */
async function assertOwnSubscription(
  db: Queryable,
  principal: Principal,
  subscriptionId: string,
  right: SubscriptionRight,
  action: string,
  lock?: 'FOR SHARE',
): Promise<ReachedSubscription> {
  const subscription = await subscriptionInReach(db, subscriptionId, reachOf(principal), { lock });
  if (!subscription) throw subscriptionNotFound(subscriptionId);
  assertRight(principal, subscription.eventTypes, right, action);
  return subscription;
}

/** 409 while the service keeps the subscription stopped: what is queued for it is failed unsent. */
function assertNotStopped(reason: SubscriptionStatusReason | null, then: string): void {
  if (reason === null) return;
  throw new ApiError(
    'SUBSCRIPTION_DISABLED',
    reason === 'CLIENT_REVOKED'
      ? 'The client of this subscription is revoked: nothing is sent to it'
      : `The service disabled this subscription (its endpoint kept failing): make it ACTIVE with a PUT, then ${then}`,
  );
}

const messageNotFound = (messageId: string) => new ApiError('MESSAGE_NOT_FOUND', `No message ${messageId}`);

export async function listMessages(
  db: Database,
  principal: Principal,
  subscriptionId: string,
  status: store.MessageStatus | null,
  position: PagePosition,
): Promise<Page> {
  await assertOwnSubscription(db, principal, subscriptionId, 'read', "Reading this subscription's messages");
  return store.listMessages(db, subscriptionId, status, position);
}

/** One message with the payload its notifications carry. */
export async function getMessage(
  db: Database,
  principal: Principal,
  subscriptionId: string,
  messageId: string,
): Promise<store.MessageView & { payload: EventPayload }> {
  await assertOwnSubscription(db, principal, subscriptionId, 'read', "Reading this subscription's messages");
  const message = await store.findMessageWithPayload(db, subscriptionId, messageId);
  if (!message) throw messageNotFound(messageId);
  assertRight(principal, [message.eventType], 'read', 'Reading this message');
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
  await assertOwnSubscription(db, principal, subscriptionId, 'read', "Reading this subscription's messages");
  const message = await store.findMessage(db, subscriptionId, messageId);
  if (!message) throw messageNotFound(messageId);
  assertRight(principal, [message.eventType], 'read', 'Reading this message');
  return store.listAttempts(db, messageId, position);
}

/**
 * 202: the message is sent again now (same webhook-id), with the whole schedule ahead of it. 409
 * while the service keeps the subscription stopped; the lock holds its status until the commit.
 */
export async function resendMessage(
  db: Database,
  principal: Principal,
  subscriptionId: string,
  messageId: string,
): Promise<store.MessageView> {
  return db.transaction(async (tx) => {
    const action = 'Resending a message';
    const subscription = await assertOwnSubscription(tx, principal, subscriptionId, 'manage', action, 'FOR SHARE');
    const found = await store.findMessage(tx, subscriptionId, messageId);
    if (!found) throw messageNotFound(messageId);
    assertRight(principal, [found.eventType], 'manage', action);
    assertNotStopped(subscription.statusReason, 'resend');
    const message = await store.resendMessage(tx, subscriptionId, messageId);
    if (!message) throw messageNotFound(messageId);
    return message;
  });
}

/** The subscription's delivery health: last delivery and failure, the failure streak, the last day. */
export async function getHealth(db: Database, principal: Principal, subscriptionId: string): Promise<HealthView> {
  await assertOwnSubscription(db, principal, subscriptionId, 'read', "Reading this subscription's health");
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
  const subscription = await assertOwnSubscription(db, principal, subscriptionId, 'manage', 'Recovering messages');
  assertNotStopped(subscription.statusReason, 'recover');
  const recovery = await db.transaction((tx) => insertRecovery(tx, subscriptionId, since, until));
  if (recovery === 'SINCE_IN_FUTURE') {
    throw validationError([{ path: '/since', message: 'must not be in the future', in: 'body' }]);
  }
  if (recovery === 'EMPTY_WINDOW') {
    throw validationError([{ path: '/until', message: 'must be after since', in: 'body' }]);
  }
  return recovery;
}

/**
 * 202: an event of `eventType` with its registry example as data is recorded and queued for this
 * subscription only, and sent now by the workers like any message (signed, retried, in the log).
 * It has no company and no owner, so no other subscription gets it and no feed shows it. 409 while
 * the subscription is INACTIVE: it would test nothing the subscription receives.
 */
export async function sendTestEvent(
  db: Database,
  principal: Principal,
  subscriptionId: string,
  eventType: string,
): Promise<store.MessageView> {
  return db.transaction(async (tx) => {
    const action = 'Sending a test event';
    const subscription = await assertOwnSubscription(tx, principal, subscriptionId, 'manage', action, 'FOR SHARE');
    const definition = findEventType(eventType);
    if (!definition || !subscription.eventTypes.includes(eventType)) {
      const message = `must be one of the subscription's event types: ${subscription.eventTypes.join(', ')}`;
      throw validationError([{ path: '/eventType', message, in: 'body' }]);
    }
    assertNotStopped(subscription.statusReason, 'send a test event');
    if (subscription.status !== 'ACTIVE') {
      throw new ApiError('SUBSCRIPTION_DISABLED', 'The subscription is INACTIVE: make it ACTIVE with a PUT first');
    }
    const event = await recordEvent(tx, {
      eventType: definition.type as EventType,
      companyId: null,
      data: definition.exampleData,
      ...(definition.examplePreviousAttributes && { previousAttributes: definition.examplePreviousAttributes }),
    });
    return store.insertTestMessage(tx, subscriptionId, event.eventId);
  });
}
