-- After payment (docs/api-commerce.md, "After payment"): where an order's receipt and a
-- voucher's PDF are stored, how much of an order was refunded and through which part,
-- partners' validator hosts and the staff who validate for them, and the console's refund
-- action in the audit log.

-- Object-store keys (unguessable, never sent to members: the files are served by the
-- owner-checked routes).
ALTER TABLE orders
    ADD COLUMN receipt_key    TEXT,
    ADD COLUMN refunded_value BIGINT NOT NULL DEFAULT 0 CHECK (refunded_value >= 0),
    ADD CONSTRAINT orders_refunded_within_total CHECK (refunded_value <= total_final_value);

ALTER TABLE vouchers
    ADD COLUMN pdf_key TEXT;

-- A refund is split between the card or PIX part (through the gateway) and the wallet
-- part (credited back), card or PIX first.
ALTER TABLE refunds
    ADD COLUMN gateway_cents     BIGINT NOT NULL DEFAULT 0 CHECK (gateway_cents >= 0),
    ADD COLUMN wallet_cents      BIGINT NOT NULL DEFAULT 0 CHECK (wallet_cents >= 0),
    ADD COLUMN payment_id        BIGINT REFERENCES payments (id),
    ADD COLUMN gateway_refund_id TEXT,
    ADD CONSTRAINT refunds_parts CHECK (gateway_cents + wallet_cents = amount);

-- A partner's own host for its validator links (`validador.parceiro.com.br`); without one
-- the links use the station's app host.
ALTER TABLE partners
    ADD COLUMN validator_host TEXT CHECK (validator_host ~ '^[a-z0-9.-]+(:[0-9]+)?$');

-- Staff who validate vouchers for a partner.
CREATE TABLE partner_staff (
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    partner_id BIGINT NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
    granted_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, partner_id)
);

CREATE INDEX vouchers_order_line ON vouchers (order_line_id);

ALTER TABLE staff_audit DROP CONSTRAINT staff_audit_action_check;
ALTER TABLE staff_audit ADD CONSTRAINT staff_audit_action_check CHECK (action IN (
    'job.rerun', 'jobs.rerun', 'job.cancel', 'queue.pause', 'queue.resume',
    'cashback.release', 'order.refund'));
