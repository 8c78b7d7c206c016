-- When a charge was last read from the provider and applied: a member's "Verificar
-- pagamento" within a few seconds of it (FILIA_PAYMENT_READ_REUSE_SECONDS) answers what that
-- read found instead of asking the provider again. Claimed with a conditional UPDATE, so
-- API processes running side by side ask once between them.
ALTER TABLE payments ADD COLUMN charge_read_at TIMESTAMPTZ;

-- The sandbox counts the reads of each charge, as a provider's dashboard would show the
-- calls made against its quota.
ALTER TABLE sandbox_charges ADD COLUMN reads INTEGER NOT NULL DEFAULT 0;
