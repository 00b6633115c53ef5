// What a token may do with a subscription it reaches, by the scopes of the subscription's event types
// (docs/decisions/tenant-isolation.md, "Scopes of the webhook routes"). Reading what was delivered
// needs each type's read scope; managing needs every scope that subscribing to the types needs.
import { hasScope, type Principal, type Scope } from '../auth/principal.ts';
import { ApiError } from '../http/problem.ts';
import { scopeSecurity } from '../http/schemas.ts';
import { EVENT_TYPES, findEventType } from '../webhooks/event-types.ts';

/** `read`: the subscription, its trail, messages, payloads and health. `manage`: everything else. */
export type SubscriptionRight = 'read' | 'manage';

function scopesFor(eventTypes: readonly string[], right: SubscriptionRight): Scope[] {
  const needed = eventTypes.flatMap((type): readonly Scope[] => {
    const definition = findEventType(type);
    if (!definition) return [];
    if (right === 'manage') return definition.scopes;
    return definition.readScope === null ? [] : [definition.readScope];
  });
  return [...new Set(needed)].sort();
}

/** 403 `FORBIDDEN` naming, in `missingScopes`, what the token lacks to do `action` with these event types. */
export function assertRight(
  principal: Principal,
  eventTypes: readonly string[],
  right: SubscriptionRight,
  action: string,
): void {
  const missing = scopesFor(eventTypes, right).filter((scope) => !hasScope(principal, scope));
  if (missing.length > 0) {
    throw new ApiError('FORBIDDEN', `${action} needs the scopes ${missing.join(', ')}`, { missingScopes: missing });
  }
}

/**
 * The registry's event types whose deliveries the token may not read: a subscription to any of them
 * is not listed (a type the registry no longer has needs no scope, as everywhere). 403 when the token
 * reads none, as a list that could never show anything would hide the reason.
 */
export function unreadableEventTypes(principal: Principal): string[] {
  const unreadable = EVENT_TYPES.filter(
    (definition) => definition.readScope !== null && !hasScope(principal, definition.readScope),
  );
  // An operational type needs no scope, so this asks for the scope of at least one resource's types.
  if (unreadable.length === EVENT_TYPES.filter((definition) => definition.readScope !== null).length) {
    const scopes = scopesFor(
      EVENT_TYPES.map((definition) => definition.type),
      'read',
    );
    throw new ApiError('FORBIDDEN', `Listing subscriptions needs one of the scopes ${scopes.join(', ')}`, {
      missingScopes: scopes,
    });
  }
  return unreadable.map((definition) => definition.type);
}

/**
 * The OpenAPI security requirements of a route that needs `right`: one alternative per scope set of
 * the registry's resource types (any one of them, under each way to authenticate). The operation
 * checks those of the subscription's own types; an operational type needs none and adds nothing.
 */
export function securityOf(right: SubscriptionRight): Record<string, string[]>[] {
  const sets = new Map<string, string[]>();
  for (const definition of EVENT_TYPES) {
    const scopes = scopesFor([definition.type], right);
    if (scopes.length > 0) sets.set(scopes.join(' '), scopes);
  }
  return [...sets.values()].flatMap((scopes) => scopeSecurity(scopes));
}
