-- new_message_id() as one expression, which PostgreSQL inlines into the statement that calls it.
-- Migration 0008's body was a query (FROM generate_series), which PostgreSQL plans anew in every
-- statement that calls it: about 100 µs of an account create that fans its event out to one
-- subscription, on either database, where the whole create's statement takes 600-900 µs. Drawing an
-- id also costs less: 3 µs instead of 20 on PostgreSQL, 9 instead of 40 on PGlite.
--
-- The same form: `msg_` + 26 characters of the RFC 4648 base32 alphabet (lower case), 130 random
-- bits. Two random UUIDs in base64 give 6 bits a character; each character kept is taken modulo 32
-- (the translate: the 64 characters onto the 32, two onto each, so a random one stays uniform). The
-- characters kept (the first 28 less the 9th and 11th, which the overlays remove) hold none of the
-- UUIDs' fixed version and variant bits. Still VOLATILE: a fan-out INSERT … SELECT draws one per row.
CREATE OR REPLACE FUNCTION new_message_id() RETURNS text LANGUAGE sql VOLATILE
RETURN 'msg_' || translate(
  left(overlay(overlay(encode(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()), 'base64')
    PLACING '' FROM 11 FOR 1) PLACING '' FROM 9 FOR 1), 26),
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  'abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrstuvwxyz234567');
