-- The card a card top-up is charged with, kept on the top-up's own transaction before the
-- provider is called (as `payments.charge_source`): `card:{provider id}` for a saved card,
-- `token:{token}` for a new card's single-use token. The expiry and the member's check
-- repeat the charge with it (same idempotency key: the provider answers the original
-- charge) when its answer was never recorded. Cleared once a charge is recorded or the
-- top-up ends.
ALTER TABLE topups ADD COLUMN charge_source TEXT;
