-- Support messages (spec 002 "Support"; docs/api-support.md, docs/decisions.md "Support
-- messages"): what a visitor or a member writes on /suporte, /suporte-enterprise or
-- /homepage/support. Each is e-mailed to the station's contact address, acknowledged to its
-- sender, and answered by staff from the console (the answer e-mailed to the sender).
CREATE TABLE support_messages (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id  BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    -- The signed-in member who wrote it (from the session, never the body); null for a visitor.
    user_id     BIGINT REFERENCES users (id) ON DELETE SET NULL,
    name        TEXT NOT NULL,
    email       TEXT NOT NULL,
    phone       TEXT,
    subject     TEXT NOT NULL CHECK (char_length(subject) <= 200),
    message     TEXT NOT NULL CHECK (char_length(message) <= 600),
    -- Whether the station had a contact address to mail it to when it came.
    station_mailed BOOLEAN NOT NULL,
    answer      TEXT,
    -- Kept when that staff account goes (the answer stays answered).
    answered_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    answered_at TIMESTAMPTZ,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK ((answer IS NULL) = (answered_at IS NULL))
);

-- The console's list: a station's messages newest first, open ones apart.
CREATE INDEX support_messages_station ON support_messages (station_id, id DESC);
CREATE INDEX support_messages_open ON support_messages (station_id, id DESC)
    WHERE answered_at IS NULL;

ALTER TABLE staff_audit DROP CONSTRAINT staff_audit_action_check;
ALTER TABLE staff_audit ADD CONSTRAINT staff_audit_action_check CHECK (action = ANY (ARRAY[
    'job.rerun', 'jobs.rerun', 'job.cancel', 'queue.pause', 'queue.resume', 'cashback.release',
    'order.refund', 'participation.annul', 'content.keep', 'content.hide', 'content.remove',
    'subscription.retry', 'subscription.cancel', 'topup.confirm', 'topup.reject',
    'topup.refund', 'support.answer']));
