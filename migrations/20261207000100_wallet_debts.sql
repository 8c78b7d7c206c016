-- Debts (issue 26): reversing a lot (a refunded purchase, an annulled participation) takes
-- back only its unspent remainder from the balance; what the member already spent of it is
-- recorded here as a debt on the member's wallet, never as a negative lot or balance.
-- Credits that reach the balance afterwards (an instant credit, a release) pay open debts
-- first, oldest first, in the credit's own transaction: each payment is a spend of kind
-- 'debt' (drawn on lots like any spend) that names the debt it paid.
--
-- Invariants (domain::wallet::ledger::check proves them, with the wallet's):
--   wallets.debt = sum(amount - settled) of the member's debts
--   wallet_debts.settled = sum(spends.amount) of the spends that name the debt
--   wallets.debt > 0 only while wallets.balance = 0 (what reaches the balance pays first)
CREATE TABLE wallet_debts (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES wallets (user_id) ON DELETE CASCADE,
    station_id  BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    -- The reversed lot whose spent part is owed: one debt per lot, however often the
    -- refund or annulment that reversed it is repeated.
    lot_id      BIGINT NOT NULL UNIQUE REFERENCES credit_lots (id) ON DELETE CASCADE,
    amount      BIGINT NOT NULL CHECK (amount > 0),
    settled     BIGINT NOT NULL DEFAULT 0 CHECK (settled >= 0 AND settled <= amount),
    -- What the statement shows.
    description TEXT NOT NULL CHECK (btrim(description) <> ''),
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    settled_at  TIMESTAMPTZ,
    CHECK ((settled = amount) = (settled_at IS NOT NULL))
);

-- The statement, newest first.
CREATE INDEX wallet_debts_user ON wallet_debts (user_id, created_at DESC, id DESC);
-- What a credit pays, oldest first.
CREATE INDEX wallet_debts_open ON wallet_debts (user_id, id) WHERE settled < amount;

ALTER TABLE wallets ADD COLUMN debt BIGINT NOT NULL DEFAULT 0 CHECK (debt >= 0);

ALTER TABLE spends ADD COLUMN debt_id BIGINT REFERENCES wallet_debts (id) ON DELETE CASCADE;
ALTER TABLE spends DROP CONSTRAINT spends_source_kind_check;
ALTER TABLE spends ADD CONSTRAINT spends_source_kind_check CHECK (source_kind IN (
    'purchase', 'donation', 'transfer', 'adjustment', 'debt'));
ALTER TABLE spends ADD CONSTRAINT spends_debt_check
    CHECK ((source_kind = 'debt') = (debt_id IS NOT NULL));
CREATE INDEX spends_debt ON spends (debt_id) WHERE debt_id IS NOT NULL;
