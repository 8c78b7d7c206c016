-- An activity's videos (spec 001 "action_videos"), in order: a file of ours in the object
-- store (`object_key`, an MP4 served at /api/media/...) or a YouTube or Vimeo video
-- (`external_url`), exactly one of them; `custom` in the answer is which. An external
-- address is stored in its canonical form (domain::activities::videos), the only form this
-- check lets through, so nothing but those two providers' videos is ever embedded.
CREATE TABLE action_videos (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    action_id    BIGINT NOT NULL REFERENCES actions (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL DEFAULT 0,
    object_key   TEXT CHECK (btrim(object_key) <> ''),
    external_url TEXT CHECK (external_url ~
        '^https://(www\.youtube\.com/watch\?v=[A-Za-z0-9_-]{11}|vimeo\.com/[0-9]{1,12})$'),
    name         TEXT NOT NULL CHECK (btrim(name) <> ''),
    description  TEXT NOT NULL DEFAULT '',
    required     BOOLEAN NOT NULL DEFAULT false,
    CHECK ((object_key IS NULL) <> (external_url IS NULL)),
    UNIQUE (action_id, position)
);
