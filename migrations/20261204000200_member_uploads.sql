-- Every image and document a member uploads on its own (`upload-image-to-s3`,
-- `files/actions`), to be attached later to a row that refers to it. The row's bytes count
-- toward the member's daily quota (FILIA_UPLOAD_BYTES_PER_DAY) from the moment it is
-- recorded, before the object is stored; `uploads.cleanup` deletes the object and the row
-- of an upload nothing refers to a day after it was made.
CREATE TABLE member_uploads (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id    BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key           TEXT NOT NULL UNIQUE,
    bytes         BIGINT NOT NULL CHECK (bytes > 0),
    kind          TEXT NOT NULL CHECK (kind IN ('image', 'document')),
    -- The name the file came with (documents); images are known by their URL alone.
    original_name TEXT CHECK (char_length(original_name) <= 200),
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- What refers to it, said when it was attached (e.g. `research_answers(12,5)`), and when.
    attached_to   TEXT,
    attached_at   TIMESTAMPTZ,
    CHECK ((attached_to IS NULL) = (attached_at IS NULL))
);

-- The quota's sum of a member's rolling day.
CREATE INDEX member_uploads_user ON member_uploads (user_id, created_at);
-- The cleanup's scan for uploads nothing refers to.
CREATE INDEX member_uploads_unattached ON member_uploads (created_at) WHERE attached_at IS NULL;
