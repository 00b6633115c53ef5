-- Every change of a resource is an event (docs/decisions/events.md).
--
-- sequence: drawn when the event is inserted, in the transaction that changed the resource and after
-- the change's own write, so while that row is locked: a later change of the same resource waits for
-- the lock and draws a larger number. A receiver keeps the largest it has applied per resource and
-- ignores an event with a smaller one (a late retry of an older change).
--
-- transaction_id: the feed (GET /v1/events) reads in (transaction_id, sequence) order and only events
-- of transactions older than every transaction still running, so an event that commits late never
-- lands behind a cursor a reader has already passed.
--
-- previous_attributes: on an event that changed an existing resource, each changed field's value
-- before the change; `data` stays exactly the resource.
--
-- owner: an operational event (a subscription the service disabled) is for its owner's subscriptions,
-- not for a company's: it has no company and no place in any company's feed.
ALTER TABLE events
  ADD COLUMN sequence bigint GENERATED ALWAYS AS IDENTITY,
  ADD COLUMN transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  ADD COLUMN previous_attributes jsonb,
  ADD COLUMN owner text,
  ALTER COLUMN company_id DROP NOT NULL;

CREATE INDEX events_feed_idx ON events (company_id, transaction_id, sequence) WHERE company_id IS NOT NULL;
