-- Wrong activation codes add up per account across re-issued codes; the fifth locks code
-- checks until `locked_until` (the e-mail's link still works). A success clears both.
ALTER TABLE activation_codes ADD COLUMN locked_until TIMESTAMPTZ;

-- The daily cap of code e-mails per address of a station: how many went out since
-- `day_started_at` (a rolling day that starts with its first e-mail).
ALTER TABLE confirmation_cooldowns
    ADD COLUMN day_started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    ADD COLUMN day_count      INTEGER     NOT NULL DEFAULT 1 CHECK (day_count >= 0);
