-- The wait a receiver asked for with Retry-After on a 429 or 503 answer (capped at the retry
-- schedule's longest wait), kept with the attempt: the delivery log shows why the next one waited.
ALTER TABLE message_attempts ADD COLUMN retry_after_ms integer;
