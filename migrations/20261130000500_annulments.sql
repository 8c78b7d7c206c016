-- Annulled participations (issue 14): support staff annul a participation (fraud, a
-- mistake); what it granted is reversed in the same transaction. The participation leaves
-- `participations` (so every count of the rules, the journeys, trophies and lucky numbers
-- forgets it at once) and is kept here whole, with who annulled it, why, and what was
-- taken back; the audit log holds the same.
CREATE TABLE annulled_participations (
    id              BIGINT PRIMARY KEY,
    station_id      BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    action_id       BIGINT NOT NULL REFERENCES actions (id) ON DELETE CASCADE,
    attempt         INTEGER NOT NULL,
    earns           BOOLEAN NOT NULL,
    completed_at    TIMESTAMPTZ NOT NULL,
    annulled_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    annulled_by     BIGINT NOT NULL REFERENCES users (id),
    reason          TEXT NOT NULL CHECK (btrim(reason) <> ''),
    -- Centavos taken back from the member's wallet (pending or balance).
    reversed_cents  BIGINT NOT NULL DEFAULT 0,
    trophies        TEXT[] NOT NULL DEFAULT '{}',
    lucky_numbers   BIGINT[] NOT NULL DEFAULT '{}'
);

CREATE INDEX annulled_participations_user ON annulled_participations (user_id);

ALTER TABLE staff_audit DROP CONSTRAINT staff_audit_action_check;
ALTER TABLE staff_audit ADD CONSTRAINT staff_audit_action_check CHECK (action IN (
    'job.rerun', 'jobs.rerun', 'job.cancel', 'queue.pause', 'queue.resume',
    'cashback.release', 'order.refund', 'participation.annul'));
