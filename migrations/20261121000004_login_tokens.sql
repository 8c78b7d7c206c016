-- Short-lived, single-use tokens that hand a signed-in member over to another host (the
-- app's /login-token/{token} link). Like sessions, only their SHA-256 is stored.
CREATE TABLE login_tokens (
    token_hash BYTEA PRIMARY KEY CHECK (length(token_hash) = 32),
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at TIMESTAMPTZ NOT NULL,
    used_at    TIMESTAMPTZ
);

CREATE INDEX login_tokens_user ON login_tokens (user_id);
