-- The support console: who may use it, what they did, and queues they paused.

-- A staff account's access to the console. `support` acts (re-run, cancel, pause, release);
-- `viewer` only reads. A grant covers one station, or every station when station_id is
-- NULL. Only accounts with users.role = 'staff' are honoured.
CREATE TABLE staff_grants (
    user_id    BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('support', 'viewer')),
    station_id BIGINT REFERENCES stations (id) ON DELETE CASCADE,
    granted_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Staff accounts made before grants existed may read their own station's console; acting
-- takes a deliberate support grant.
INSERT INTO staff_grants (user_id, role, station_id)
SELECT id, 'viewer', station_id FROM users WHERE role = 'staff';

-- Every staff action, written in the action's own transaction: who, what, on which jobs,
-- in which station's scope, and the details needed to understand it later (the filter of a
-- bulk re-run, the queue paused, the counts).
CREATE TABLE staff_audit (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id),
    action     TEXT NOT NULL CHECK (action IN (
                   'job.rerun', 'jobs.rerun', 'job.cancel', 'queue.pause', 'queue.resume',
                   'cashback.release')),
    station_id BIGINT REFERENCES stations (id) ON DELETE SET NULL,
    job_ids    TEXT[] NOT NULL DEFAULT '{}',
    details    JSONB NOT NULL DEFAULT '{}',
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX staff_audit_created ON staff_audit (created_at DESC, id DESC);
CREATE INDEX staff_audit_jobs ON staff_audit USING gin (job_ids);

-- A paused queue keeps its jobs; workers stop taking them until it is resumed.
ALTER TABLE job_queues
    ADD COLUMN paused_at TIMESTAMPTZ,
    ADD COLUMN paused_by BIGINT REFERENCES users (id) ON DELETE SET NULL;

-- 0008's get_jobs, now also answering nothing for a paused queue. Every fetch, by poll or
-- after a NOTIFY, goes through this function, so a pause holds for every worker process
-- at its next fetch; jobs already fetched finish.
CREATE OR REPLACE FUNCTION apalis.get_jobs(
    worker_id TEXT,
    v_job_type TEXT,
    v_job_count INTEGER DEFAULT 5
)
RETURNS SETOF apalis.jobs
LANGUAGE sql
VOLATILE
AS $$
    UPDATE apalis.jobs j
    SET
        status = 'Queued',
        lock_by = worker_id,
        lock_at = now()
    WHERE j.id = ANY (ARRAY(
        SELECT id
        FROM apalis.jobs
        WHERE
            (
                status = 'Pending'
                OR (
                    status = 'Failed'
                    AND attempts < max_attempts
                )
            )
            AND run_at < now()
            AND job_type = v_job_type
            AND NOT EXISTS (
                SELECT 1 FROM public.job_queues q
                WHERE q.name = v_job_type AND q.paused_at IS NOT NULL
            )
        ORDER BY priority DESC, run_at ASC
        LIMIT v_job_count
        FOR UPDATE SKIP LOCKED
    ))
    RETURNING j.*;
$$;
