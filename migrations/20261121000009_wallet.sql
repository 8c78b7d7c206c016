-- The wallet: an append-only ledger per member. Every credit is a lot; every spend draws on
-- available lots, oldest to expire first. Amounts are integer hundredths of a point
-- ("centavos" of the station currency before its multiplier): 100 points = 10000.
--
-- Invariants (domain::wallet::ledger::check proves them, tests run it):
--   wallets.balance = sum(amount - spent) of the member's lots in state 'available'
--   wallets.pending = sum(amount) of the member's lots in state 'pending'
--   sum(spends.amount) = sum(spend_allocations.amount) = sum(credit_lots.spent)
-- A reversed or expired lot takes only its unspent remainder out of the balance; what was
-- already spent from it stays spent.

-- What activities pay. Whole points, as the spec's `points` and `additional_cashback`.
ALTER TABLE actions
    ADD COLUMN points              INTEGER NOT NULL DEFAULT 0 CHECK (points >= 0),
    ADD COLUMN additional_cashback INTEGER NOT NULL DEFAULT 0 CHECK (additional_cashback >= 0),
    ADD COLUMN active              BOOLEAN NOT NULL DEFAULT true;

-- A member's completed participation in an activity: what activity credits are paid for.
CREATE TABLE participations (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id   BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    action_id    BIGINT NOT NULL REFERENCES actions (id) ON DELETE CASCADE,
    completed_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX participations_user ON participations (user_id, action_id);

-- One wallet per member, holding the cached totals. The row is also the lock that
-- serialises a member's spends: every change to the ledger updates it in the same
-- transaction, and the CHECK is the last guard against an overdraft.
CREATE TABLE wallets (
    user_id    BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    station_id BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    balance    BIGINT NOT NULL DEFAULT 0 CHECK (balance >= 0),
    pending    BIGINT NOT NULL DEFAULT 0 CHECK (pending >= 0),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- A credit. (source_kind, source_id, rule) names the event and the rule that paid it, so a
-- retried or duplicated credit finds its lot and adds nothing.
CREATE TABLE credit_lots (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES wallets (user_id) ON DELETE CASCADE,
    station_id   BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    source_kind  TEXT NOT NULL CHECK (source_kind IN (
                     'activity', 'purchase', 'invitation', 'donation', 'refund', 'topup',
                     'adjustment')),
    source_id    TEXT NOT NULL CHECK (btrim(source_id) <> ''),
    rule         TEXT NOT NULL CHECK (rule ~ '^[a-z][a-z0-9_.-]{0,62}$'),
    amount       BIGINT NOT NULL CHECK (amount > 0),
    spent        BIGINT NOT NULL DEFAULT 0 CHECK (spent >= 0 AND spent <= amount),
    state        TEXT NOT NULL CHECK (state IN ('pending', 'available', 'reversed', 'expired')),
    -- What the statement shows as the credit's `action.name`.
    description  TEXT NOT NULL CHECK (btrim(description) <> ''),
    action_id    BIGINT REFERENCES actions (id) ON DELETE SET NULL,
    -- When the holding period ends: a pending lot is released by the first scheduled
    -- release of its station at or after this time.
    available_at TIMESTAMPTZ NOT NULL,
    expires_at   TIMESTAMPTZ,
    released_at  TIMESTAMPTZ,
    -- When it was reversed or expired.
    closed_at    TIMESTAMPTZ,
    -- The points.credit job that wrote it.
    job_id       TEXT,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (source_kind, source_id, rule),
    CHECK (state <> 'pending' OR (released_at IS NULL AND closed_at IS NULL)),
    CHECK (state <> 'available' OR released_at IS NOT NULL),
    CHECK ((state IN ('reversed', 'expired')) = (closed_at IS NOT NULL))
);

-- The release batch walks the due pending lots of one station in time order.
CREATE INDEX credit_lots_due ON credit_lots (station_id, available_at, id) WHERE state = 'pending';
-- The statement, newest first.
CREATE INDEX credit_lots_user ON credit_lots (user_id, created_at DESC, id DESC);
-- What the scheduled expiry ends.
CREATE INDEX credit_lots_expiring ON credit_lots (station_id, expires_at)
    WHERE state = 'available' AND spent < amount AND expires_at IS NOT NULL;
-- What a spend can draw on.
CREATE INDEX credit_lots_spendable ON credit_lots (user_id, expires_at, available_at, id)
    WHERE state = 'available' AND spent < amount;

-- A spend: what the member paid with wallet balance. (source_kind, source_id) is the thing
-- paid for, so paying for the same order twice is one spend.
CREATE TABLE spends (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES wallets (user_id) ON DELETE CASCADE,
    station_id  BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    source_kind TEXT NOT NULL CHECK (source_kind IN (
                    'purchase', 'donation', 'transfer', 'adjustment')),
    source_id   TEXT NOT NULL CHECK (btrim(source_id) <> ''),
    amount      BIGINT NOT NULL CHECK (amount > 0),
    description TEXT NOT NULL CHECK (btrim(description) <> ''),
    action_id   BIGINT REFERENCES actions (id) ON DELETE SET NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (source_kind, source_id)
);

CREATE INDEX spends_user ON spends (user_id, created_at DESC, id DESC);

-- Which lots a spend drew on, and how much from each.
CREATE TABLE spend_allocations (
    spend_id BIGINT NOT NULL REFERENCES spends (id) ON DELETE CASCADE,
    lot_id   BIGINT NOT NULL REFERENCES credit_lots (id) ON DELETE CASCADE,
    amount   BIGINT NOT NULL CHECK (amount > 0),
    PRIMARY KEY (spend_id, lot_id)
);

CREATE INDEX spend_allocations_lot ON spend_allocations (lot_id);

-- A station's release rule for one kind of credit; rules without a row take the defaults
-- in domain::wallet::rules. `hold` is the holding period before a lot may be released;
-- `instant` lots are available at once, without waiting for a scheduled release (money the
-- member paid in, refunds); `expires_after` ends an unspent lot.
CREATE TABLE credit_rules (
    station_id    BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    rule          TEXT NOT NULL CHECK (rule ~ '^[a-z][a-z0-9_.-]{0,62}$'),
    hold          INTERVAL NOT NULL DEFAULT interval '0' CHECK (hold >= interval '0'),
    instant       BOOLEAN NOT NULL DEFAULT false,
    expires_after INTERVAL CHECK (expires_after > interval '0'),
    updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (station_id, rule),
    CHECK (NOT (instant AND hold > interval '0'))
);

-- When a station releases cashback: a cron expression with seconds, read in Brasília time
-- (UTC-3, no daylight saving since 2019). Stations without a row release every hour.
-- `last_tick` is the last scheduled release handed to the queue, so each tick runs once.
CREATE TABLE cashback_schedules (
    station_id BIGINT PRIMARY KEY REFERENCES stations (id) ON DELETE CASCADE,
    expression TEXT NOT NULL DEFAULT '0 0 * * * *',
    enabled    BOOLEAN NOT NULL DEFAULT true,
    last_tick  TIMESTAMPTZ,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- One row per committed release batch, written in the batch's own transaction: a release
-- job that crashed and ran again still reports exactly what it released.
CREATE TABLE cashback_release_batches (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id      TEXT NOT NULL,
    station_id  BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    lots        INTEGER NOT NULL CHECK (lots > 0),
    amount      BIGINT NOT NULL CHECK (amount > 0),
    released_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX cashback_release_batches_job ON cashback_release_batches (job_id);
