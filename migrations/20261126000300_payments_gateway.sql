-- The payment gateway's state (domain/src/infra/payments).

-- Every provider's webhook event once: a repeat delivery finds its row and is skipped.
CREATE TABLE payment_events (
    provider text NOT NULL,
    event_id text NOT NULL,
    kind text NOT NULL,
    charge_id text,
    received_at timestamptz NOT NULL,
    PRIMARY KEY (provider, event_id)
);
CREATE INDEX payment_events_charge ON payment_events (provider, charge_id);

-- The sandbox provider: a stand-in payment company living in our database. Nothing of the
-- business reads these tables; only domain/src/infra/payments/sandbox.rs does.
CREATE TABLE sandbox_cards (
    id text PRIMARY KEY,
    token text NOT NULL UNIQUE,
    brand text NOT NULL,
    last_digits text NOT NULL CHECK (last_digits ~ '^[0-9]{4}$'),
    -- What the magic number decides (sandbox.rs, `Behaviour`).
    behaviour text NOT NULL,
    saved boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL
);

CREATE TABLE sandbox_charges (
    id text PRIMARY KEY,
    idempotency_key text NOT NULL UNIQUE,
    -- The request a key was first used with; the same key with another request is refused.
    fingerprint text NOT NULL,
    method text NOT NULL CHECK (method IN ('pix', 'credit_card')),
    status text NOT NULL CHECK (status IN ('pending', 'paid', 'processing', 'failed',
        'canceled', 'refunded', 'partially_refunded', 'chargedback')),
    amount_cents bigint NOT NULL CHECK (amount_cents > 0),
    paid_amount_cents bigint NOT NULL DEFAULT 0 CHECK (paid_amount_cents >= 0),
    refunded_amount_cents bigint NOT NULL DEFAULT 0 CHECK (refunded_amount_cents >= 0),
    reference text NOT NULL,
    br_code text,
    expires_at timestamptz,
    card_id text REFERENCES sandbox_cards (id),
    installments integer,
    -- A processing card becomes this ('paid' or 'failed') at settle_at.
    settles_to text CHECK (settles_to IN ('paid', 'failed')),
    settle_at timestamptz,
    failure_reason text,
    fail_next_refund boolean NOT NULL DEFAULT false,
    paid_at timestamptz,
    created_at timestamptz NOT NULL,
    CHECK (refunded_amount_cents <= paid_amount_cents)
);
CREATE INDEX sandbox_charges_settle ON sandbox_charges (settle_at) WHERE settle_at IS NOT NULL;

CREATE TABLE sandbox_refunds (
    id text PRIMARY KEY,
    charge_id text NOT NULL REFERENCES sandbox_charges (id),
    -- Null for refunds the bank started (MED): nobody asked us.
    idempotency_key text UNIQUE,
    amount_cents bigint NOT NULL CHECK (amount_cents > 0),
    status text NOT NULL CHECK (status IN ('processing', 'done', 'failed')),
    started_by text NOT NULL CHECK (started_by IN ('merchant', 'bank')),
    settles_to text CHECK (settles_to IN ('done', 'failed')),
    settle_at timestamptz,
    created_at timestamptz NOT NULL
);
CREATE INDEX sandbox_refunds_charge ON sandbox_refunds (charge_id);
CREATE INDEX sandbox_refunds_settle ON sandbox_refunds (settle_at) WHERE settle_at IS NOT NULL;

-- The delivery outbox: one row per delivery (a duplicate is a second row of one event).
CREATE TABLE sandbox_webhooks (
    id bigserial PRIMARY KEY,
    event_id text NOT NULL,
    kind text NOT NULL,
    charge_id text NOT NULL,
    body text NOT NULL,
    due_at timestamptz NOT NULL,
    delivered_at timestamptz,
    attempts integer NOT NULL DEFAULT 0,
    last_error text
);
CREATE INDEX sandbox_webhooks_due ON sandbox_webhooks (due_at) WHERE delivered_at IS NULL;
CREATE INDEX sandbox_webhooks_event ON sandbox_webhooks (event_id);
