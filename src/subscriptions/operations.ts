// What the webhook subscriptions API does, one function per operation. Routes parse and shape;
// these decide. A subscription belongs to the token's client_id, else its sub, and is reached only by
// a token of that owner that may read every company it delivers for (reachOf).
import type { Principal } from '../auth/principal.ts';
import { isClientRevoked } from '../credentials/store.ts';
import type { Database } from '../db/database.ts';
import type { PagePosition } from '../db/keyset-page.ts';
import { ApiError, type FieldError, jsonPointer, validationError } from '../http/problem.ts';
import { endpointUrlProblem } from '../webhooks/endpoint-guard.ts';
import { findEventType } from '../webhooks/event-types.ts';
import { generateSecret } from '../webhooks/signature.ts';
import { type AuditedFields, actorOf, changesBetween } from './activity-changes.ts';
import { insertActivity, lockAuditedFields } from './activity-store.ts';
import { assertRight, unreadableEventTypes } from './rights.ts';
import {
  MAX_CUSTOM_HEADER_NAME_LENGTH,
  MAX_CUSTOM_HEADER_VALUE_LENGTH,
  type Subscription,
  type SubscriptionRequest,
  type SubscriptionStatus,
} from './schemas.ts';
import * as store from './store.ts';

export interface SubscriptionSettings {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: http and private addresses allowed as endpoints (development only). */
  allowPrivateTargets: boolean;
  /** WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT: past it a create answers 409 (decisions/tenant-isolation.md). */
  maxSubscriptionsPerTenant: number;
}

/** Who owns what the principal creates: the third-party application, else the subject. */
function ownerOf(principal: Principal): string {
  return principal.clientId ?? principal.subject;
}

/**
 * The subscriptions the principal may see and change: its owner's whose companies are all among the
 * token's. Another company's token of the same client cannot read a secret, a payload or repoint a
 * subscription that delivers data it may not read (docs/decisions/subscriptions.md).
 */
export function reachOf(principal: Principal): store.SubscriptionReach {
  return { owner: ownerOf(principal), companies: [...principal.companies] };
}

/**
 * 200 with the new subscription. It remembers the token's companies: it receives events of those
 * only. Its first signing secret and its CREATE activity are written in the same transaction. A
 * revoked client owns nothing new (403), whatever token names it, and a tenant (the owner for these
 * companies) at its limit of subscriptions nothing more (409).
 */
export async function createSubscription(
  db: Database,
  principal: Principal,
  input: SubscriptionRequest,
  settings: SubscriptionSettings,
): Promise<Subscription> {
  const fields = toFields(principal, input, settings);
  const companies = [...principal.companies].sort();
  return db.transaction(async (tx) => {
    if (principal.clientId && (await isClientRevoked(tx, principal.clientId))) {
      throw new ApiError('FORBIDDEN', 'The client of this token is revoked: it cannot own new subscriptions');
    }
    const owner = ownerOf(principal);
    const owned = await store.countSubscriptionsOfLocked(tx, owner, companies);
    if (owned >= settings.maxSubscriptionsPerTenant) {
      throw new ApiError(
        'SUBSCRIPTION_LIMIT_REACHED',
        `This client has ${owned} subscriptions for these companies, the most it may have (${settings.maxSubscriptionsPerTenant}); delete one before creating another`,
      );
    }
    const subscription = await store.insertSubscription(tx, owner, companies, fields);
    await store.insertCurrentSecret(tx, subscription.id, generateSecret());
    await insertActivity(tx, {
      subscriptionId: subscription.id,
      operationType: 'CREATE',
      actorUrn: actorOf(principal),
      description: 'Subscription created',
      changes: changesBetween(null, audited(fields)),
    });
    return subscription;
  });
}

export async function getSubscription(db: Database, principal: Principal, id: string): Promise<Subscription> {
  const subscription = await store.findSubscription(db, id, reachOf(principal));
  if (!subscription) throw subscriptionNotFound(id);
  assertRight(principal, subscription.eventTypes, 'read', 'Reading this subscription');
  return subscription;
}

/**
 * Full replacement: an omitted optional field takes its default (status ACTIVE, no custom headers,
 * endpointAuth NONE), except rateLimitPerSecond, which the reference does not know: omitted, it
 * stays; null removes it. The companies stay the creating token's (docs/decisions/subscriptions.md).
 * The token manages the event types before and after (403). A subscription of a revoked client
 * cannot be made ACTIVE (403).
 */
export async function updateSubscription(
  db: Database,
  principal: Principal,
  id: string,
  input: SubscriptionRequest,
  settings: SubscriptionSettings,
): Promise<Subscription> {
  const fields = toFields(principal, input, settings);
  const reach = reachOf(principal);
  const subscription = await db.transaction(async (tx) => {
    const before = await lockAuditedFields(tx, id, reach);
    if (before) assertRight(principal, before.eventTypes, 'manage', 'Changing this subscription');
    const replaced = before && (await store.replaceSubscription(tx, id, reach, fields));
    if (!before || !replaced) return undefined;
    const changes = changesBetween(before, audited(fields, before.rateLimit));
    await insertActivity(tx, {
      subscriptionId: id,
      operationType: 'UPDATE',
      actorUrn: actorOf(principal),
      description: changes.length > 0 ? `Changed ${changes.map((c) => c.field).join(', ')}` : 'Saved unchanged',
      changes,
    });
    return replaced;
  });
  if (subscription) return subscription;
  if ((await store.subscriptionInReach(db, id, reach))?.statusReason === 'CLIENT_REVOKED') {
    throw new ApiError('FORBIDDEN', 'The client of this subscription is revoked: it stays INACTIVE');
  }
  throw subscriptionNotFound(id);
}

/**
 * 204; its messages, pending ones included, are deleted with it, so nothing more is sent. Its trail
 * stays, readable by its owner for WEBHOOK_RETENTION.
 */
export async function deleteSubscription(db: Database, principal: Principal, id: string): Promise<void> {
  const deleted = await db.transaction(async (tx) => {
    const before = await lockAuditedFields(tx, id, reachOf(principal));
    if (!before) return false;
    assertRight(principal, before.eventTypes, 'manage', 'Deleting this subscription');
    await insertActivity(tx, {
      subscriptionId: id,
      operationType: 'DELETE',
      actorUrn: actorOf(principal),
      description: 'Subscription deleted',
      changes: [],
    });
    return store.deleteSubscription(tx, id, reachOf(principal));
  });
  if (!deleted) throw subscriptionNotFound(id);
}

export interface SubscriptionListFilters {
  status: SubscriptionStatus | null;
  eventTypes: string[] | null;
}

export function toSubscriptionFilters(query: {
  status?: SubscriptionStatus;
  event_types?: string[];
}): SubscriptionListFilters {
  return {
    status: query.status ?? null,
    eventTypes: query.event_types?.length ? [...new Set(query.event_types)].sort() : null,
  };
}

export async function listSubscriptions(
  db: Database,
  principal: Principal,
  filters: SubscriptionListFilters,
  position: PagePosition,
) {
  const unreadable = unreadableEventTypes(principal);
  return store.listSubscriptions(
    db,
    { ...filters, reach: reachOf(principal), unreadableEventTypes: unreadable },
    position,
  );
}

export async function getSubscriptionSecret(db: Database, principal: Principal, id: string): Promise<string> {
  const found = await store.findCurrentSecret(db, id, reachOf(principal));
  if (found === undefined) throw subscriptionNotFound(id);
  assertRight(principal, found.eventTypes, 'manage', 'Reading the signing secret');
  return found.secret;
}

/** A new current secret; the replaced one keeps signing beside it for 24 hours. */
export async function rotateSubscriptionSecret(db: Database, principal: Principal, id: string): Promise<string> {
  return db.transaction(async (tx) => {
    const subscription = await store.subscriptionInReach(tx, id, reachOf(principal), { lock: 'FOR UPDATE' });
    if (!subscription) throw subscriptionNotFound(id);
    assertRight(principal, subscription.eventTypes, 'manage', 'Rotating the signing secret');
    const secret = generateSecret();
    await store.insertCurrentSecret(tx, id, secret);
    await insertActivity(tx, {
      subscriptionId: id,
      operationType: 'UPDATE',
      actorUrn: actorOf(principal),
      description: 'Signing secret rotated; the previous one signs beside it for 24 hours',
      changes: [],
    });
    return secret;
  });
}

/**
 * Checks what the schema cannot (every broken field at once, 400), then the scopes the event types
 * need (403), and returns what the store keeps.
 */
/** What an activity compares of the fields a request sets; a rate limit not sent stays `keptRateLimit`. */
function audited(fields: store.SubscriptionFields, keptRateLimit: number | null = null): AuditedFields {
  return {
    status: fields.status,
    eventTypes: fields.eventTypes,
    endpointUrl: fields.endpointUrl,
    customHeaders: fields.customHeaders,
    authType: fields.basic ? 'BASIC' : 'NONE',
    basicUsername: fields.basic?.username ?? null,
    basicPassword: fields.basic?.password ?? null,
    rateLimit: fields.rateLimit === undefined ? keptRateLimit : fields.rateLimit,
  };
}

function toFields(
  principal: Principal,
  input: SubscriptionRequest,
  settings: SubscriptionSettings,
): store.SubscriptionFields {
  const auth = input.endpointAuth ?? {};
  const basic = auth.type === 'BASIC';
  const customHeaders = input.customHeaders ?? {};
  const errors = subscriptionRequestErrors(input, settings);
  if (errors.length > 0) throw validationError(errors);

  assertRight(principal, input.eventTypes, 'manage', 'Subscribing to these event types');
  return {
    status: input.status ?? 'ACTIVE',
    eventTypes: input.eventTypes,
    endpointUrl: input.endpointUrl,
    customHeaders,
    basic: basic && auth.credentials ? auth.credentials : null,
    rateLimit: input.rateLimitPerSecond,
  };
}

/**
 * What the schema cannot check of a subscription request. It reads `body` as it came, also when the
 * schema refused it, so that one answer lists every broken field; a field of the wrong type is the
 * schema's to report, and is skipped here.
 */
export function subscriptionRequestErrors(body: unknown, settings: SubscriptionSettings): FieldError[] {
  const input = isObject(body) ? body : {};
  const auth = isObject(input.endpointAuth) ? input.endpointAuth : {};
  const basic = auth.type === 'BASIC';
  const errors: FieldError[] = [];
  if (Array.isArray(input.eventTypes)) {
    input.eventTypes.forEach((type: unknown, index) => {
      if (typeof type === 'string' && !findEventType(type)) {
        errors.push(bodyError(`/eventTypes/${index}`, 'must be a type of GET /v1/event-types'));
      }
    });
  }
  if (typeof input.endpointUrl === 'string') {
    const urlProblem = endpointUrlProblem(input.endpointUrl, settings.allowPrivateTargets);
    if (urlProblem) errors.push(bodyError('/endpointUrl', urlProblem));
  }
  if (basic && !auth.credentials) errors.push(bodyError('/endpointAuth/credentials', 'is required for BASIC'));
  if (!basic && auth.credentials) errors.push(bodyError('/endpointAuth/credentials', 'is only for BASIC'));
  if (isObject(input.customHeaders)) errors.push(...customHeaderErrors(input.customHeaders, basic));
  return errors;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// RFC 9110 §5.6.2 token characters.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Field values as RFC 9110 §5.5 and Node's HTTP client allow them: tab, visible ASCII, space and
// Latin-1 (obs-text); no CR, LF or other control characters.
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
// Headers the delivery sets itself or that belong to the connection (RFC 9110 §7.6.1).
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
]);

function customHeaderErrors(headers: Record<string, unknown>, basicAuth: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const path = jsonPointer(['customHeaders', name]);
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) errors.push(bodyError(path, 'must be a valid HTTP header name'));
    else if (name.length > MAX_CUSTOM_HEADER_NAME_LENGTH) {
      errors.push(bodyError(path, `must be a name of at most ${MAX_CUSTOM_HEADER_NAME_LENGTH} characters`));
    } else if (lower.startsWith('webhook-') || RESERVED_HEADERS.has(lower)) {
      errors.push(bodyError(path, 'is set by the delivery and cannot be a custom header'));
    } else if (lower === 'authorization' && basicAuth) {
      errors.push(bodyError(path, 'cannot be set together with BASIC endpointAuth'));
    } else if (seen.has(lower)) errors.push(bodyError(path, 'repeats a header name (names are case-insensitive)'));
    seen.add(lower);
    if (typeof value !== 'string') continue;
    if (value.length > MAX_CUSTOM_HEADER_VALUE_LENGTH) {
      errors.push(bodyError(path, `must be at most ${MAX_CUSTOM_HEADER_VALUE_LENGTH} characters`));
    } else if (!HEADER_VALUE.test(value)) {
      errors.push(bodyError(path, 'must hold only tabs, spaces, visible ASCII and Latin-1 characters (no CR or LF)'));
    }
  }
  return errors;
}

function bodyError(path: string, message: string): FieldError {
  return { path, message, in: 'body' };
}

export function subscriptionNotFound(id: string): ApiError {
  return new ApiError('SUBSCRIPTION_NOT_FOUND', `No subscription ${id}`);
}
