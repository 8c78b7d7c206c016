-- A job whose effect has no key of its own to make a second one harmless (an e-mail handed
-- to an SMTP relay) marks its record here, durably, before it begins that effect. A later
-- run that finds the mark cannot know whether the effect happened, so it does not repeat
-- it by itself: the job fails for support to see. A re-run (the console's, one job or a
-- filter's matches) clears the mark: staff decided to do it again (jobs::JobContext).
ALTER TABLE job_records ADD COLUMN effect_begun_at TIMESTAMPTZ;
