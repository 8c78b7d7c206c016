-- The job table's hot path (issue 16). Our own apalis backend (jobs::backend) takes a job
-- with one statement (Pending -> Running) and writes results in batches (Running -> Done);
-- each of those UPDATEs writes a new row version into every index of apalis.jobs and runs
-- its per-row constraints and triggers. What every job paid for nothing:

-- The primary key again, from apalis' first migration. Our tables' foreign keys were
-- bound to it when they were made: bind them to the primary key instead.
ALTER TABLE job_records DROP CONSTRAINT job_records_job_id_fkey;
ALTER TABLE job_failures DROP CONSTRAINT job_failures_job_id_fkey;
DROP INDEX apalis.unique_job_id;
ALTER TABLE job_records ADD CONSTRAINT job_records_job_id_fkey
    FOREIGN KEY (job_id) REFERENCES apalis.jobs (id) ON DELETE CASCADE;
ALTER TABLE job_failures ADD CONSTRAINT job_failures_job_id_fkey
    FOREIGN KEY (job_id) REFERENCES apalis.jobs (id) ON DELETE CASCADE;

-- Every job had an entry in the idempotency index, keyed or not; only keyed jobs need one.
-- `Enqueue::push` names this predicate in its ON CONFLICT so the index is still the arbiter.
DROP INDEX IF EXISTS apalis.idx_jobs_idempotency_key;
CREATE UNIQUE INDEX jobs_idempotency_key ON apalis.jobs (job_type, idempotency_key)
    WHERE idempotency_key IS NOT NULL;

-- The lock holder's foreign key checked apalis.workers (and share-locked its row, which
-- concurrent fetches and acknowledgements turned into multixacts) for every job taken. A
-- job held by a worker with no live row is an orphan whatever the row's fate, and the
-- rescue (jobs::backend::liveness) treats it as one.
ALTER TABLE apalis.jobs DROP CONSTRAINT IF EXISTS fk_worker_lock_by;

-- CHECK constraints run on every UPDATE, so each job parsed its whole payload as JSON (and
-- matched its id) twice more after the insert. Checked where the values are written.
ALTER TABLE apalis.jobs
    DROP CONSTRAINT jobs_payload_is_json,
    DROP CONSTRAINT jobs_id_is_ulid;

CREATE FUNCTION apalis.filia_check_job() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    -- Either one would make the fetching worker fail on its whole batch: refuse it here.
    IF NEW.id !~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$' THEN
        RAISE EXCEPTION 'new row for relation "jobs" violates check constraint "jobs_id_is_ulid"'
            USING ERRCODE = 'check_violation', CONSTRAINT = 'jobs_id_is_ulid',
                  SCHEMA = 'apalis', TABLE = 'jobs';
    END IF;
    -- convert_from raises on bytes that are not UTF-8, the cast on text that is not JSON.
    PERFORM convert_from(NEW.job, 'UTF8')::jsonb;
    RETURN NEW;
END;
$$;

CREATE TRIGGER filia_check_job
    BEFORE INSERT OR UPDATE OF id, job ON apalis.jobs
    FOR EACH ROW EXECUTE FUNCTION apalis.filia_check_job();

-- The backoff only applies to a failure with attempts left: say so in the trigger's WHEN, so
-- the function is not entered for every other change of status.
DROP TRIGGER filia_retry_backoff ON apalis.jobs;
CREATE TRIGGER filia_retry_backoff
    BEFORE UPDATE OF status ON apalis.jobs
    FOR EACH ROW
    WHEN (NEW.status = 'Failed' AND NEW.attempts < NEW.max_attempts)
    EXECUTE FUNCTION apalis.filia_retry_backoff();

-- apalis' insert trigger announced every job with its own id, so a transaction inserting
-- a thousand jobs queued a thousand notifications. The workers only read the queue's name:
-- with the id left out, PostgreSQL folds a transaction's identical notifications into one.
CREATE OR REPLACE FUNCTION apalis.notify_new_jobs() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.run_at <= now() THEN
        PERFORM pg_notify('apalis::job::insert', json_build_object('job_type', NEW.job_type)::text);
    END IF;
    RETURN NEW;
END;
$$;
