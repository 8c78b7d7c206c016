-- Wrong activation codes typed for an identifier that has no activation to check (no such
-- account in the station, or one that never had a code), counted and locked out the way
-- `activation_codes` counts an account's: the answers (422, then 429 from the fifth on) do
-- not tell who has an account. Keyed by the SHA-256 of the normalised identifier (`email:`
-- and the address, or `id:` and the account id the form sent).
CREATE TABLE activation_guesses (
    station_id      BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    identifier_hash BYTEA NOT NULL CHECK (length(identifier_hash) = 32),
    failed_attempts SMALLINT NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
    locked_until    TIMESTAMPTZ,
    PRIMARY KEY (station_id, identifier_hash)
);

-- A row whose lockout ended and whose count started over holds nothing back: retention
-- finds those through this index.
CREATE INDEX activation_guesses_spent ON activation_guesses (locked_until)
    WHERE failed_attempts = 0;
