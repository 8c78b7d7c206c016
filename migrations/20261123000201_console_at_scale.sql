-- The support console with a million retained jobs (jobs::console): every query it runs
-- reads a bounded part of apalis.jobs through one of these, never every finished job.

-- A queue's jobs, newest first: the list's pages and its scan window for one queue.
CREATE INDEX jobs_queue_newest ON apalis.jobs (job_type, id);

-- Jobs that have not finished: the overview counts them exactly however many finished
-- jobs are retained (finished ones it counts over the last day, through jobs_finished_at).
CREATE INDEX jobs_unfinished ON apalis.jobs (job_type)
    WHERE status IN ('Pending', 'Queued', 'Running')
       OR (status = 'Failed' AND attempts < max_attempts);

-- Jobs a re-run applies to (failed, cancelled, retrying, and rescued ones waiting): the
-- list's re-runnable count and the bulk re-run find them without the succeeded ones.
CREATE INDEX jobs_rerunnable ON apalis.jobs (id)
    WHERE status IN ('Failed', 'Killed') OR (status = 'Pending' AND attempts > 0);
