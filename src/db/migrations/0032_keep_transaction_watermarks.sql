-- Where the feed (GET /v1/events) starts a `created_after` window. An event's created_at is its
-- transaction's start, and a transaction that starts after a snapshot was taken gets a transaction
-- id at or above that snapshot's xmax. So a watermark (a time, and the xmax of a snapshot taken
-- before it) says: every event created at or after `recorded_at` has transaction_id >= `next_transaction_id`.
-- The feed starts its range there instead of at the company's first event; the retention sweeper
-- writes one per sweep and deletes those past the retention (docs/decisions/events.md, "The feed").
CREATE TABLE transaction_watermarks (
  recorded_at timestamptz NOT NULL,
  next_transaction_id xid8 NOT NULL
);

CREATE INDEX transaction_watermarks_recorded_at_idx ON transaction_watermarks (recorded_at);
