-- Review fixes of the commerce core (docs/api-commerce.md).

-- How each order line shares the order's discounts and cashback, fixed at order time so a
-- partial refund gives back exactly that line's part: `net_amount` is the line's price less
-- its share of the activity's delivery discount and of the coupon; `cashback_share` is its
-- part of the activity's cashback (centavos). Integer splits, the leftover centavos on the
-- last line (domain/src/commerce/totals.rs, `split`).
ALTER TABLE order_lines
    ADD COLUMN net_amount     BIGINT CHECK (net_amount >= 0),
    ADD COLUMN cashback_share BIGINT NOT NULL DEFAULT 0 CHECK (cashback_share >= 0);
UPDATE order_lines SET net_amount = unit_price * quantity WHERE net_amount IS NULL;
ALTER TABLE order_lines ALTER COLUMN net_amount SET NOT NULL;

-- Sane maxima, so no quantity times price can overflow: 10 000 units a line, and
-- R$ 10 000 000,00 a product.
ALTER TABLE cart_lines ADD CONSTRAINT cart_lines_quantity_max CHECK (quantity <= 10000);
ALTER TABLE checkout_lines ADD CONSTRAINT checkout_lines_quantity_max CHECK (quantity <= 10000);
ALTER TABLE order_lines ADD CONSTRAINT order_lines_quantity_max CHECK (quantity <= 10000);
ALTER TABLE products ADD CONSTRAINT products_value_max CHECK (value <= 1000000000);
