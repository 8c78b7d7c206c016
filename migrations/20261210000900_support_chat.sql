-- Where a station answers its members in an external chat (spec 000 section 6: "/homepage/support
-- is an external chat for station 1"): the member menu's 'Fale conosco' opens it instead of
-- the contact form. A setting, never a station id; only https addresses.
ALTER TABLE stations ADD COLUMN support_chat_url TEXT
    CHECK (support_chat_url IS NULL OR support_chat_url ~ '^https://[^/\s]+');
