-- Saved cards at both providers (issue 28): the member as the provider's customer, kept
-- once per member and provider (Pagar.me keeps cards in a customer's wallet; the sandbox
-- has no customers), and the expiry the sandbox's tokeniser knows, which it answers when
-- a card is saved (`saved_cards.exp_month/exp_year`).
CREATE TABLE payment_customers (
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider    TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, provider),
    UNIQUE (provider, customer_id)
);

ALTER TABLE sandbox_cards
    ADD COLUMN exp_month INTEGER CHECK (exp_month BETWEEN 1 AND 12),
    ADD COLUMN exp_year  INTEGER CHECK (exp_year BETWEEN 2000 AND 2200),
    ADD CHECK ((exp_month IS NULL) = (exp_year IS NULL));
