-- A new card's billing address, kept with its token until the charge is made: Pagar.me
-- does not tokenise the address, so the charge (or its recovery job) sends it alongside.
ALTER TABLE payments ADD COLUMN billing_address JSONB;
