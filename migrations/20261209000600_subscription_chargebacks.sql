-- A paid subscription try the provider later reports refunded or charged back (the bank
-- took the money back, or staff refunded it at the provider) undoes what it paid for: the
-- subscription ends on a chargeback or a whole refund, and a type 21 period's order is
-- refunded through the shop's bank-refund path (cashback, vouchers). What the provider
-- reported is kept on the try, so a replayed webhook applies only what is new.
ALTER TABLE subscription_charges
    ADD COLUMN bank_refunded_cents BIGINT NOT NULL DEFAULT 0 CHECK (bank_refunded_cents >= 0),
    ADD COLUMN chargedback_at TIMESTAMPTZ;

-- A type 21 period's order has a card or PIX part carrying its paid try's charge, recorded
-- paid: it is what the shop's refunds read. The orders made before this get theirs.
INSERT INTO payments (station_id, order_id, method, amount, status, gateway_charge_id,
                      gateway_status, created_at, paid_at)
SELECT o.station_id, o.id, c.method, c.amount, 'paid', c.gateway_charge_id, 'paid',
       o.created_at, o.paid_at
  FROM orders o
  JOIN subscription_charges c ON c.period_id = o.subscription_period_id AND c.status = 'paid'
 WHERE NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id);

-- A subscription re-anchored (a change to a plan of another period length) counts its
-- periods from the period it changed at: `anchor_at` is that period's start and
-- `anchor_index` its index, so period n starts `n - anchor_index` lengths after the anchor.
-- A date counted backwards from it instead would have its day clamped by a short month
-- (a 31st becoming a 28th for good).
ALTER TABLE subscriptions
    ADD COLUMN anchor_index INTEGER NOT NULL DEFAULT 0 CHECK (anchor_index >= 0);

-- An upgrade paid with a new card replaces the subscription's card at once; when its
-- proration is refused (at once, or when a try that timed out is learnt declined later)
-- the card it replaced comes back. The period keeps which card that was, so the engine
-- restores it in the transaction that records the refusal, and never on a timeout.
ALTER TABLE subscription_periods
    ADD COLUMN replaced_card BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN previous_card_id BIGINT REFERENCES saved_cards (id);
