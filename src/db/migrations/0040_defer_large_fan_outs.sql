-- A change that records many events at once (a batch create of up to 1,000 accounts) no longer
-- writes its messages in its own statement: it writes one row here naming its events, in the same
-- transaction, and the delivery workers make the messages after it commits, in one statement that
-- also deletes the row, so each event is fanned out exactly once (docs/decisions/events.md,
-- "Large changes are fanned out by the workers"). Smaller changes still make their messages inline.
CREATE TABLE event_fan_outs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_ids uuid[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
