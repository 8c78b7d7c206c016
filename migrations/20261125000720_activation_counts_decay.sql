-- Wrong activation codes count within a day: a count whose last wrong code is a day old
-- starts over, for an account's codes and an unknown identifier's guesses alike (so the two
-- still answer the same). A guess row whose lockout is over and whose count has started
-- over, or gone a day quiet, weighs as much as no row: the daily retention deletes it
-- (before this, a row of one to four wrong codes for an unknown address stayed forever).
ALTER TABLE activation_codes ADD COLUMN last_failed_at TIMESTAMPTZ;
ALTER TABLE activation_guesses ADD COLUMN last_failed_at TIMESTAMPTZ;

UPDATE activation_guesses SET last_failed_at = now() WHERE failed_attempts > 0;
UPDATE activation_codes SET last_failed_at = now() WHERE failed_attempts > 0;

CREATE INDEX activation_guesses_quiet ON activation_guesses (last_failed_at);

-- The daily retention deletes the code e-mail limits of the day before by this column.
CREATE INDEX confirmation_cooldowns_sent ON confirmation_cooldowns (sent_at);
