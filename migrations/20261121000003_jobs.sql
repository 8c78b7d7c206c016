-- The job platform around apalis' tables (schema apalis, created by its own migrations,
-- which run before ours). apalis.jobs holds the queue; these tables hold what apalis does
-- not: who a job belongs to, its progress, each failed attempt, and per-queue backoff.

-- A payload that is not JSON text would make the fetching worker fail to decode it and
-- die, and the next one too. Refuse it at the door instead.
-- Likewise an id that is not a ULID: the fetch of a whole batch fails on it, so the queue
-- stalls behind one bad row.
ALTER TABLE apalis.jobs
    ADD CONSTRAINT jobs_payload_is_json CHECK ((convert_from(job, 'UTF8')::jsonb) IS NOT NULL),
    ADD CONSTRAINT jobs_id_is_ulid CHECK (id ~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$');

-- Per-queue retry spacing, written by the workers from each job kind's declaration.
CREATE TABLE job_queues (
    name         TEXT PRIMARY KEY,
    backoff_base INTERVAL NOT NULL CHECK (backoff_base > interval '0'),
    backoff_max  INTERVAL NOT NULL CHECK (backoff_max >= backoff_base),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- apalis re-fetches a failed job at once (25 attempts in two seconds). Push the next
-- attempt out exponentially instead: base x 2^(attempt - 1), capped, with up to 10% jitter
-- so a burst of failures does not come back as a burst.
CREATE FUNCTION apalis.filia_retry_backoff() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    base INTERVAL := interval '10 seconds';
    cap  INTERVAL := interval '1 hour';
BEGIN
    IF NEW.status = 'Failed' AND NEW.attempts < NEW.max_attempts THEN
        SELECT q.backoff_base, q.backoff_max INTO base, cap
        FROM public.job_queues q WHERE q.name = NEW.job_type;
        base := coalesce(base, interval '10 seconds');
        cap := coalesce(cap, interval '1 hour');
        NEW.run_at := now()
            + least(base * power(2, greatest(NEW.attempts - 1, 0)), cap) * (1 + random() / 10);
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER filia_retry_backoff
    BEFORE UPDATE OF status ON apalis.jobs
    FOR EACH ROW EXECUTE FUNCTION apalis.filia_retry_backoff();

-- Who a job belongs to and which business record it serves. Only jobs enqueued with an
-- owner or a subject, or that report progress or were cancelled, have a row.
CREATE TABLE job_records (
    job_id       TEXT PRIMARY KEY REFERENCES apalis.jobs (id) ON DELETE CASCADE,
    station_id   BIGINT REFERENCES stations (id) ON DELETE CASCADE,
    user_id      BIGINT REFERENCES users (id) ON DELETE SET NULL,
    subject_kind TEXT,
    subject_id   TEXT,
    progress     SMALLINT CHECK (progress BETWEEN 0 AND 100),
    cancelled_at TIMESTAMPTZ,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK ((subject_kind IS NULL) = (subject_id IS NULL))
);

CREATE INDEX job_records_user ON job_records (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX job_records_subject ON job_records (subject_kind, subject_id)
    WHERE subject_kind IS NOT NULL;

-- One row per failed attempt: apalis keeps only the last result. `summary` is safe to show
-- the job's owner; `detail` is for staff. A job re-run by staff starts its attempts again,
-- so (job, attempt) is not unique.
CREATE TABLE job_failures (
    id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id    TEXT NOT NULL REFERENCES apalis.jobs (id) ON DELETE CASCADE,
    attempt   INTEGER NOT NULL CHECK (attempt > 0),
    worker    TEXT NOT NULL,
    summary   TEXT NOT NULL,
    detail    TEXT NOT NULL,
    failed_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX job_failures_job ON job_failures (job_id, id);

-- The canary job's effect: one row per key. It proves end to end that the fleet runs jobs,
-- and, keyed, that a re-run job does its work once.
CREATE TABLE job_canary_effects (
    key        TEXT PRIMARY KEY,
    job_id     TEXT NOT NULL,
    worker     TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Retention deletes finished jobs by age.
CREATE INDEX jobs_finished_at ON apalis.jobs (done_at) WHERE status IN ('Done', 'Failed', 'Killed');
