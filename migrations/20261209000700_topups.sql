-- Money into the wallet (issue 29; docs/api-wallet.md "Top-ups", docs/decisions.md
-- "Top-ups"): a top-up is money a member puts into the wallet by PIX, by card or by a bank
-- transfer staff confirm. 1 point = R$ 1,00, so `amount` is centavos and hundredths alike.

-- The station's limits, with the contract's defaults.
ALTER TABLE stations
    ADD COLUMN topup_min_cents BIGINT NOT NULL DEFAULT 1000 CHECK (topup_min_cents > 0),
    ADD COLUMN topup_max_cents BIGINT NOT NULL DEFAULT 500000,
    ADD COLUMN topup_daily_max_cents BIGINT NOT NULL DEFAULT 1000000,
    ADD COLUMN topup_review_above_cents BIGINT NOT NULL DEFAULT 100000
        CHECK (topup_review_above_cents >= 0),
    ADD COLUMN topup_transfer_expiry_hours INTEGER NOT NULL DEFAULT 72
        CHECK (topup_transfer_expiry_hours BETWEEN 1 AND 720),
    ADD CONSTRAINT stations_topup_limits CHECK (
        topup_min_cents <= topup_max_cents AND topup_max_cents <= topup_daily_max_cents);

-- Where members send a bank transfer to; a station without a row does not offer transfers.
CREATE TABLE station_bank_details (
    station_id BIGINT PRIMARY KEY REFERENCES stations (id) ON DELETE CASCADE,
    bank_name  TEXT NOT NULL CHECK (btrim(bank_name) <> ''),
    agency     TEXT NOT NULL,
    account    TEXT NOT NULL,
    holder     TEXT NOT NULL,
    document   TEXT NOT NULL,
    pix_key    TEXT
);

--   pending:  waiting for the payment (PIX, a card still processing) or for staff (transfer);
--   review:   paid above the station's review threshold, waiting for staff;
--   credited: its points were queued to the wallet (`points.credit`, key topup:{id}:topup);
--   failed:   the card was declined, or the charge never completed;
--   expired:  the PIX or the transfer request was not paid/confirmed in time;
--   rejected: staff refused it (a review top-up's charge is refunded);
--   refunded: staff refunded a credited PIX/card top-up.
CREATE TABLE topups (
    id                BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id        BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    user_id           BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    method            TEXT NOT NULL CHECK (method IN ('pix', 'card', 'transfer')),
    amount            BIGINT NOT NULL CHECK (amount > 0),
    status            TEXT NOT NULL DEFAULT 'pending' CHECK (status IN
        ('pending', 'review', 'credited', 'failed', 'expired', 'rejected', 'refunded')),
    failure_reason    TEXT,
    saved_card_id     BIGINT REFERENCES saved_cards (id) ON DELETE SET NULL,
    gateway_charge_id TEXT UNIQUE,
    br_code           TEXT,
    -- When the provider was last asked about the charge (a member's check reuses a fresh read).
    charge_read_at    TIMESTAMPTZ,
    paid_at           TIMESTAMPTZ,
    expires_at        TIMESTAMPTZ,
    credited_at       TIMESTAMPTZ,
    decided_by        BIGINT REFERENCES users (id),
    decided_at        TIMESTAMPTZ,
    -- A rejected review or a refund: set once the provider took the refund (retried until then).
    refund_sent_at    TIMESTAMPTZ,
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (status <> 'refunded' OR method <> 'transfer')
);

CREATE INDEX topups_member ON topups (user_id, id DESC);
CREATE INDEX topups_station ON topups (station_id, id DESC);
-- The daily limit sums a member's live top-ups of the day.
CREATE INDEX topups_member_day ON topups (user_id, station_id, created_at)
    WHERE status IN ('pending', 'review', 'credited');

ALTER TABLE staff_audit DROP CONSTRAINT staff_audit_action_check;
ALTER TABLE staff_audit ADD CONSTRAINT staff_audit_action_check CHECK (action = ANY (ARRAY[
    'job.rerun', 'jobs.rerun', 'job.cancel', 'queue.pause', 'queue.resume', 'cashback.release',
    'order.refund', 'participation.annul', 'content.keep', 'content.hide', 'content.remove',
    'subscription.retry', 'subscription.cancel', 'topup.confirm', 'topup.reject',
    'topup.refund']));
