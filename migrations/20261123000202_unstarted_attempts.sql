-- Only a started attempt can be lost. A job fetched into a worker's buffer but never
-- started is 'Queued' (apalis sets 'Running' when the attempt starts); putting it back at
-- shutdown, or rescuing it from a dead process, adds an attempt in apalis' statements and
-- in ours. Such a job did not run: it gets its attempt back and no failure row, so a few
-- deploys in a row cannot fail a job that never ran.
CREATE FUNCTION apalis.filia_attempt_not_started() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.attempts := OLD.attempts;
    RETURN NEW;
END;
$$;

DROP TRIGGER filia_attempt_lost ON apalis.jobs;

CREATE TRIGGER filia_attempt_lost
    BEFORE UPDATE OF status ON apalis.jobs
    FOR EACH ROW
    WHEN (OLD.status = 'Running' AND NEW.status = 'Pending' AND NEW.attempts > OLD.attempts)
    EXECUTE FUNCTION apalis.filia_attempt_lost();

CREATE TRIGGER filia_attempt_not_started
    BEFORE UPDATE OF status ON apalis.jobs
    FOR EACH ROW
    WHEN (OLD.status = 'Queued' AND NEW.status = 'Pending' AND NEW.attempts > OLD.attempts)
    EXECUTE FUNCTION apalis.filia_attempt_not_started();
