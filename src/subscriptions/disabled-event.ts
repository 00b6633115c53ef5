// v1.subscription.disabled (docs/decisions/events.md): the operational event the service records
// when it makes a subscription INACTIVE, heard by the owner's other ACTIVE subscriptions of that type.
// Its data is a notice, not the subscription as GET answers it: that holds the custom headers, which
// may carry the endpoint's own credentials, and those are not sent to another endpoint.
import type { Static } from 'typebox';
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import type { SubscriptionDisabledSchema } from '../webhooks/event-types.ts';
import { recordEvents } from '../webhooks/record-event.ts';

export type SubscriptionDisabled = Static<typeof SubscriptionDisabledSchema>;

/** A subscription the service has just disabled: whose it is, and what its event says. */
export interface DisabledSubscription {
  owner: string;
  notice: SubscriptionDisabled;
}

/**
 * SQL: the notice of the subscription row `alias` (read after the disabling UPDATE, as in its
 * RETURNING), as JSON: its status_reason is the reason, its updated_at the time.
 */
export function disabledNotice(alias: string): string {
  return `jsonb_build_object('subscriptionId', ${alias}.id, 'endpointUrl', ${alias}.endpoint_url,
    'eventTypes', to_jsonb(${alias}.event_types), 'reason', ${alias}.status_reason,
    'disabledAt', ${isoTimestamp(`${alias}.updated_at`)})`;
}

/**
 * Records one v1.subscription.disabled per subscription, in one statement, inside the transaction
 * that disabled them: no company's event, its owner's.
 */
export async function recordSubscriptionsDisabled(
  tx: Queryable,
  disabled: readonly DisabledSubscription[],
): Promise<void> {
  await recordEvents(
    tx,
    disabled.map(({ owner, notice }) => ({
      eventType: 'v1.subscription.disabled',
      companyId: null,
      owner,
      data: notice,
    })),
  );
}
