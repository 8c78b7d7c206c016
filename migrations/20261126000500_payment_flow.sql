-- Paying an order's card or PIX part (domain/src/commerce/payment.rs).

-- The card a card part is to be charged with (the browser's token or a saved card's
-- provider id) until the charge is recorded, so a retry or the recovery job can repeat the
-- same request under the same idempotency key; cleared once the charge is recorded.
ALTER TABLE payments ADD COLUMN charge_source TEXT;
-- The provider's last status of the charge, and what it says it refunded on its own
-- (a bank-started MED refund, a chargeback): recorded here, reversed by the refunds job.
ALTER TABLE payments ADD COLUMN gateway_status TEXT;
ALTER TABLE payments ADD COLUMN gateway_refunded_cents BIGINT NOT NULL DEFAULT 0
    CHECK (gateway_refunded_cents >= 0);
ALTER TABLE payments ADD COLUMN gateway_refunded_at TIMESTAMPTZ;

CREATE INDEX payments_charge_pending ON payments (status, created_at)
    WHERE status = 'pending' AND method <> 'wallet';

-- A member's cards saved at the provider (never the number: the provider's card id, brand
-- and last digits), listed by `GET /user-credit-cards/{id}`.
CREATE TABLE saved_cards (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id      BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider        TEXT NOT NULL,
    gateway_card_id TEXT NOT NULL,
    brand           TEXT NOT NULL,
    last_digits     TEXT NOT NULL CHECK (last_digits ~ '^[0-9]{4}$'),
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (provider, gateway_card_id)
);

CREATE INDEX saved_cards_user ON saved_cards (user_id, id);
