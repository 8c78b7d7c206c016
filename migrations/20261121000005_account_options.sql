-- How each station lets people in, and the account fields sign-up and the mailing list need.
ALTER TABLE stations
    -- Which form /cadastrar shows: the multi-step one (e-mail, password, code) or the
    -- simple one (CPF and personal data, no password until onboarding).
    ADD COLUMN signup_flow TEXT NOT NULL DEFAULT 'multi_step'
        CHECK (signup_flow IN ('multi_step', 'simple')),
    -- The identifier the login form asks for.
    ADD COLUMN login_with TEXT NOT NULL DEFAULT 'email'
        CHECK (login_with IN ('email', 'cpf'));

ALTER TABLE users
    ADD COLUMN city TEXT CHECK (btrim(city) <> ''),
    -- The first part of the member's invite code `{code}-U{id}-E{station}`; random, so an
    -- invite cannot be forged from a member id alone.
    ADD COLUMN invite_code TEXT UNIQUE CHECK (invite_code ~ '^[A-Z0-9]{8}$'),
    ADD COLUMN mailing_subscribed BOOLEAN NOT NULL DEFAULT true;
