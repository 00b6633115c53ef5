-- Webhook delivery (docs/decisions/webhook-delivery.md).

-- The webhook-id of a new message: `msg_` + 26 characters of the RFC 4648 base32 alphabet (lower
-- case, no '.'), from two random UUIDs: 128 random bits. VOLATILE, so a fan-out INSERT … SELECT
-- draws one per row.
CREATE FUNCTION new_message_id() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT 'msg_' || string_agg(substr('abcdefghijklmnopqrstuvwxyz234567', 1 + (get_byte(r.b, i) & 31), 1), '' ORDER BY i)
  FROM (SELECT uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()) AS b) r, generate_series(0, 25) i
$$;

-- Attempts keep one monotonic numbering for the life of a message (the delivery log never reuses a
-- number); a resend starts a fresh schedule by remembering how many attempts came before it. The
-- position in the schedule is attempts - schedule_base.
ALTER TABLE messages ADD COLUMN schedule_base integer NOT NULL DEFAULT 0;
