-- A paid period of a type 21 subscription makes an order of its product (vouchers, receipt,
-- cashback), like a checkout does; such an order has no hold of its own but its period.
ALTER TABLE orders
    ALTER COLUMN checkout_id DROP NOT NULL,
    ADD COLUMN subscription_period_id BIGINT UNIQUE REFERENCES subscription_periods (id),
    ADD CONSTRAINT orders_one_origin CHECK ((checkout_id IS NULL) <> (subscription_period_id IS NULL));
