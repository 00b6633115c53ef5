-- Name search is case-insensitive beyond ASCII ('éco' finds 'École'). The name column sorts with
-- COLLATE "C", whose case mapping folds ASCII only, so the search compares under the ICU root
-- collation instead; the trigram index must carry that collation for the planner to use it.

DROP INDEX accounts_name_trgm_idx;
CREATE INDEX accounts_name_trgm_idx ON accounts USING gin (name COLLATE "und-x-icu" gin_trgm_ops);
