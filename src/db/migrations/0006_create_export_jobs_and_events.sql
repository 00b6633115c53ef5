-- Export jobs (the reference API v2), their items, and the event outbox
-- (docs/decisions/export-jobs-and-events.md).

CREATE TABLE export_jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL,
  created_by uuid,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'in_progress', 'completed', 'completed_with_errors', 'failed')),
  failure_reason text,
  failure_reason_type text,
  number_of_items integer NOT NULL DEFAULT 0,
  is_interactive boolean NOT NULL DEFAULT true,
  vendor_based_bookkeeping boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Every change of the job or its items moves it; the job expires EXPORT_JOB_TTL after it.
  last_updated_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz,
  expired_at timestamptz
);

-- At most one open job per company: of racing creates, one inserts and the others fail with 23505
-- (409 EXPORT_ALREADY_IN_PROGRESS), whatever the isolation level.
CREATE UNIQUE INDEX export_jobs_one_open_per_company_idx ON export_jobs (company_id)
  WHERE status IN ('pending', 'in_progress');
CREATE INDEX export_jobs_company_created_at_idx ON export_jobs (company_id, created_at, id);
-- The expiry sweep scans only open jobs, oldest change first.
CREATE INDEX export_jobs_open_last_updated_at_idx ON export_jobs (last_updated_at)
  WHERE status IN ('pending', 'in_progress');

-- No foreign key to accounting_entries: an item is the record of what a job was asked to export,
-- and deleting an entry (docs/decisions/export-jobs-and-events.md) must stay possible after it was
-- exported.
CREATE TABLE export_job_items (
  job_id uuid NOT NULL REFERENCES export_jobs (id) ON DELETE CASCADE,
  accounting_entry_id uuid NOT NULL,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'in_progress', 'successful', 'failed', 'abandoned')),
  failure_reason text,
  failure_reason_type text,
  external_id text,
  external_url text,
  exported_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, accounting_entry_id)
);

-- "Not yet in any export job item" (the default selection of a new job) probes this index.
CREATE INDEX export_job_items_accounting_entry_id_idx ON export_job_items (accounting_entry_id);

-- The event outbox. A domain change inserts its event in the same transaction (recordEvent), so an
-- event exists exactly when its change committed, and then NOTIFYs ledgerhook_events as a wake-up.
-- Rows are immutable facts; the delivery worker (next issue) fans each event out to one message
-- per matching subscription, claiming work with FOR UPDATE SKIP LOCKED so several processes share
-- it, and falls back to polling by created_at when a notification is missed.
CREATE TABLE events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_type text NOT NULL,
  company_id uuid NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX events_created_at_idx ON events (created_at, id);
