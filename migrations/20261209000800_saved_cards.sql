-- The member's payment methods (issue 29): a saved card is removed by its member (kept for
-- the charges and subscriptions that name it, never listed nor charged again), one card of
-- a member and provider is the default, and each card is reminded once per expiry that
-- it is about to expire (the monthly reminder and the subscriptions' one share the mark).
ALTER TABLE saved_cards
    ADD COLUMN removed_at TIMESTAMPTZ,
    -- When the provider confirmed the removed card deleted (`cards.delete` retries until then).
    ADD COLUMN provider_deleted_at TIMESTAMPTZ,
    ADD COLUMN is_default BOOLEAN NOT NULL DEFAULT false,
    ADD CHECK (NOT (is_default AND removed_at IS NOT NULL));

-- At most one default among a member's live cards with a provider.
CREATE UNIQUE INDEX saved_cards_one_default ON saved_cards (user_id, provider)
    WHERE is_default;

-- The monthly reminder finds live cards by the month they expire in.
CREATE INDEX saved_cards_expiry ON saved_cards ((exp_year * 12 + exp_month - 1), id)
    WHERE removed_at IS NULL AND exp_year IS NOT NULL;

-- The members' cards saved so far: the oldest live one of each member is the default.
UPDATE saved_cards SET is_default = true
 WHERE id IN (SELECT DISTINCT ON (user_id, provider) id FROM saved_cards
               WHERE removed_at IS NULL ORDER BY user_id, provider, id);

-- One reminder per card and expiry, whichever job sends it first: a durable mark (the mail
-- job's idempotency key lasts only as long as job retention keeps the job).
CREATE TABLE card_expiry_reminders (
    saved_card_id BIGINT NOT NULL REFERENCES saved_cards (id) ON DELETE CASCADE,
    exp_year      INTEGER NOT NULL,
    exp_month     INTEGER NOT NULL,
    sent_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (saved_card_id, exp_year, exp_month)
);

-- A live card subscription never points at a removed card: the removal locks the card row
-- (FOR UPDATE) while it checks the subscriptions, and this check waits for that lock, so
-- a card given to a subscription at the same moment as its removal is refused.
CREATE FUNCTION subscriptions_card_not_removed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    removed TIMESTAMPTZ;
BEGIN
    IF NEW.saved_card_id IS NOT NULL AND NEW.status IN ('incomplete', 'active', 'past_due') THEN
        -- Locked by id, so a removal in flight is waited for and its outcome read.
        SELECT removed_at INTO removed FROM saved_cards WHERE id = NEW.saved_card_id
           FOR KEY SHARE;
        IF removed IS NOT NULL THEN
            RAISE EXCEPTION 'saved card % was removed', NEW.saved_card_id
                USING ERRCODE = 'check_violation', CONSTRAINT = 'subscriptions_card_not_removed';
        END IF;
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER subscriptions_card_not_removed
    BEFORE INSERT OR UPDATE OF saved_card_id ON subscriptions
    FOR EACH ROW EXECUTE FUNCTION subscriptions_card_not_removed();
