-- Our own short links for share activities (type 5): `/s/{code}` redirects to the share page
-- `/compartilhamento?source={user_id}&campaign={action_id}` and counts the opening. One
-- code per member and activity; the code is 8 characters of an unambiguous alphabet from
-- the operating system's generator (domain::activities::short_links).
CREATE TABLE short_links (
    code       TEXT PRIMARY KEY CHECK (code ~ '^[2-9A-HJ-NP-Z]{8}$'),
    station_id BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    action_id  BIGINT NOT NULL REFERENCES actions (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Openings of the link (each `GET /s/{code}` that redirected), not visits: the share
    -- page records and credits visitors (share_visits, share_credits).
    clicks     BIGINT NOT NULL DEFAULT 0 CHECK (clicks >= 0),
    UNIQUE (user_id, action_id)
);

CREATE INDEX short_links_by_action ON short_links (action_id);
