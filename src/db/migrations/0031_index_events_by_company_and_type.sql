-- The event feed (GET /v1/events) filtered by type reads each asked type's events of the company in
-- feed order, one range of this index per type, from the index alone (id included): a rare type is
-- found without reading the company's other events, which events_feed_idx alone would, testing each
-- one's type.
CREATE INDEX events_feed_type_idx ON events (company_id, event_type, transaction_id, sequence) INCLUDE (id)
  WHERE company_id IS NOT NULL;
