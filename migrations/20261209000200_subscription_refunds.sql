-- Money a subscription's try received that pays no period (its period was paid by another
-- try, or ended while the try was at the provider: a PIX paid after it expired, a
-- cancellation racing a charge) is given back. `refund_due` marks it owed, set in the
-- transaction that finds it; the try turns `refunded` once the provider takes the refund
-- (keyed `refund:subscription-charge-{id}`), so a failed refund call is tried again.
ALTER TABLE subscription_charges ADD COLUMN refund_due BOOLEAN NOT NULL DEFAULT false;

CREATE INDEX subscription_charges_refund_due ON subscription_charges (period_id)
    WHERE refund_due;
