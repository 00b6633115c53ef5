-- An event's subscriptions are found by its company (docs/decisions/events.md, "Matching events to
-- subscriptions"): through this index, a change reads its own company's few subscriptions, however
-- many other companies subscribe to the same event type. Through the event types' index alone it read
-- every subscription to the type, about 0.3 ms per change with 2,000 of them.
CREATE INDEX subscriptions_active_companies_idx ON subscriptions USING gin (companies) WHERE status = 'ACTIVE';
