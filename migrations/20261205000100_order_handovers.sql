-- A receipt's line handed over at its partner's counter (`/validador/pedido/{code}`), once:
-- the units it held then (its quantity less those refunded or in a refund under way), who
-- handed it over and when. The name is kept as it was, so the record outlives the account.
CREATE TABLE order_handovers (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    order_line_id  BIGINT NOT NULL UNIQUE REFERENCES order_lines (id) ON DELETE CASCADE,
    quantity       INTEGER NOT NULL CHECK (quantity > 0),
    handed_by      BIGINT REFERENCES users (id) ON DELETE SET NULL,
    handed_by_name TEXT NOT NULL,
    handed_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
