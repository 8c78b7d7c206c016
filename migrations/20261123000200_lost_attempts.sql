-- An attempt whose worker stopped (its process died and apalis' orphan rescue put the job
-- back, or the process shut down with the job still held) returns the job as 'Pending'
-- with the attempt counted. get_jobs takes 'Pending' jobs whatever their attempts, so a
-- job that kills its worker every time would be fetched forever, killing the fleet one
-- process at a time. Record the lost attempt as a failure like any other, and past
-- max_attempts end the job failed for good.
CREATE FUNCTION apalis.filia_attempt_lost() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    exhausted BOOLEAN := NEW.attempts >= NEW.max_attempts;
BEGIN
    INSERT INTO public.job_failures (job_id, attempt, worker, summary, detail)
    VALUES (
        NEW.id,
        NEW.attempts,
        coalesce(OLD.lock_by, 'unknown'),
        CASE WHEN exhausted
            THEN 'O processamento foi interrompido em todas as tentativas; a tarefa foi encerrada.'
            ELSE 'O processamento foi interrompido e será retomado.'
        END,
        'the worker stopped during the attempt ('
            || coalesce(NEW.last_result ->> 'Err', 'no result')
            || CASE WHEN exhausted
                   THEN format('); %s of %s attempts used, failed for good', NEW.attempts,
                               NEW.max_attempts)
                   ELSE ')'
               END
    );
    IF exhausted THEN
        NEW.status := 'Failed';
        NEW.done_at := now();
    END IF;
    RETURN NEW;
END;
$$;

-- Named to fire before filia_retry_backoff (BEFORE triggers run in name order), which
-- then leaves the exhausted job's run_at alone.
CREATE TRIGGER filia_attempt_lost
    BEFORE UPDATE OF status ON apalis.jobs
    FOR EACH ROW
    WHEN (OLD.status IN ('Queued', 'Running') AND NEW.status = 'Pending'
          AND NEW.attempts > OLD.attempts)
    EXECUTE FUNCTION apalis.filia_attempt_lost();
