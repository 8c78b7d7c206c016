-- The wall feed (Mural, spec 001): posts with text, an image or a video, likes, comments on
-- posts and on activities, members' reports and the videos members upload. The choices are
-- in docs/decisions.md ("The wall feed").

-- Posts (or comments) reported by this many different members are hidden until staff
-- review them.
ALTER TABLE stations
    ADD COLUMN feed_report_threshold INTEGER NOT NULL DEFAULT 3
        CHECK (feed_report_threshold BETWEEN 1 AND 1000);

-- A video a member uploads, from its first byte to the MP4 the feed plays. The upload
-- is resumable: `received` bytes of `size` are in the upload area (FILIA_DATA_DIR/uploads,
-- shared by the API and the workers); once whole, `video.transcode` (job_id) makes the MP4
-- and its poster in the object store, or says why not (failure, as the member reads it).
CREATE TABLE feed_videos (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id    BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    original_name TEXT NOT NULL DEFAULT '' CHECK (char_length(original_name) <= 255),
    size          BIGINT NOT NULL CHECK (size > 0 AND size <= 200000000),
    received      BIGINT NOT NULL DEFAULT 0 CHECK (received >= 0 AND received <= size),
    status        TEXT NOT NULL DEFAULT 'uploading'
                  CHECK (status IN ('uploading', 'processing', 'ready', 'failed')),
    job_id        TEXT,
    video_key     TEXT,
    poster_key    TEXT,
    duration_ms   INTEGER CHECK (duration_ms >= 0),
    width         INTEGER CHECK (width > 0),
    height        INTEGER CHECK (height > 0),
    failure       TEXT,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (status <> 'ready' OR (video_key IS NOT NULL AND poster_key IS NOT NULL))
);

CREATE INDEX feed_videos_user ON feed_videos (user_id, created_at);
-- The cleanup job's scan for uploads abandoned mid-way.
CREATE INDEX feed_videos_abandoned ON feed_videos (updated_at) WHERE status = 'uploading';

-- A post: text up to 320 characters, required without media; one image or one video.
-- A video post is published (published_at) when its video is ready; until then only its
-- author sees it. Hidden (by reports or staff) and removed (by staff) posts leave the
-- feed; an author's delete removes the row.
CREATE TABLE feed_posts (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id    BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    description   TEXT NOT NULL DEFAULT '' CHECK (char_length(description) <= 320),
    image_key     TEXT CHECK (btrim(image_key) <> ''),
    video_id      BIGINT UNIQUE REFERENCES feed_videos (id) ON DELETE RESTRICT,
    like_count    INTEGER NOT NULL DEFAULT 0 CHECK (like_count >= 0),
    comment_count INTEGER NOT NULL DEFAULT 0 CHECK (comment_count >= 0),
    report_count  INTEGER NOT NULL DEFAULT 0 CHECK (report_count >= 0),
    published_at  TIMESTAMPTZ,
    hidden_at     TIMESTAMPTZ,
    removed_at    TIMESTAMPTZ,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (image_key IS NULL OR video_id IS NULL),
    CHECK (btrim(description) <> '' OR image_key IS NOT NULL OR video_id IS NOT NULL)
);

-- The feed, newest first, paged by (created_at, id): a keyset, so posts published while a
-- member scrolls neither repeat nor push others out of the page.
CREATE INDEX feed_posts_page ON feed_posts (station_id, created_at DESC, id DESC)
    WHERE hidden_at IS NULL AND removed_at IS NULL;
CREATE INDEX feed_posts_user ON feed_posts (user_id, created_at);

-- One like per member and post; the post's like_count changes in the statement that
-- inserts or deletes the like.
CREATE TABLE feed_likes (
    post_id    BIGINT NOT NULL REFERENCES feed_posts (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (post_id, user_id)
);

CREATE INDEX feed_likes_user ON feed_likes (user_id);

-- Likes on activities (when comments_and_likes_enabled), counted the same way.
ALTER TABLE actions
    ADD COLUMN like_count INTEGER NOT NULL DEFAULT 0 CHECK (like_count >= 0);

CREATE TABLE action_likes (
    action_id  BIGINT NOT NULL REFERENCES actions (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (action_id, user_id)
);

CREATE INDEX action_likes_user ON action_likes (user_id);

-- Comments on a post or on an activity (exactly one); an activity's comment may answer a
-- root comment of the same activity (one level of replies, parent_id).
CREATE TABLE comments (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id   BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    post_id      BIGINT REFERENCES feed_posts (id) ON DELETE CASCADE,
    action_id    BIGINT REFERENCES actions (id) ON DELETE CASCADE,
    parent_id    BIGINT REFERENCES comments (id) ON DELETE CASCADE,
    description  TEXT NOT NULL CHECK (btrim(description) <> '' AND char_length(description) <= 200),
    report_count INTEGER NOT NULL DEFAULT 0 CHECK (report_count >= 0),
    hidden_at    TIMESTAMPTZ,
    removed_at   TIMESTAMPTZ,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK ((post_id IS NULL) <> (action_id IS NULL)),
    CHECK (parent_id IS NULL OR action_id IS NOT NULL)
);

CREATE INDEX comments_post ON comments (post_id, created_at, id) WHERE post_id IS NOT NULL;
CREATE INDEX comments_action ON comments (action_id, created_at, id) WHERE action_id IS NOT NULL;
CREATE INDEX comments_parent ON comments (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX comments_user ON comments (user_id, created_at);

-- A member's report of a post or a comment (exactly one), once each; staff review it:
-- keep, hide or remove (audited in staff_audit).
CREATE TABLE feed_reports (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id  BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    post_id     BIGINT REFERENCES feed_posts (id) ON DELETE CASCADE,
    comment_id  BIGINT REFERENCES comments (id) ON DELETE CASCADE,
    reason      TEXT NOT NULL DEFAULT '' CHECK (char_length(reason) <= 500),
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    reviewed_at TIMESTAMPTZ,
    reviewed_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    decision    TEXT CHECK (decision IN ('keep', 'hide', 'remove')),
    CHECK ((post_id IS NULL) <> (comment_id IS NULL)),
    CHECK ((reviewed_at IS NULL) = (decision IS NULL)),
    UNIQUE (user_id, post_id),
    UNIQUE (user_id, comment_id)
);

CREATE INDEX feed_reports_open ON feed_reports (station_id, created_at) WHERE reviewed_at IS NULL;
CREATE INDEX feed_reports_post ON feed_reports (post_id) WHERE post_id IS NOT NULL;
CREATE INDEX feed_reports_comment ON feed_reports (comment_id) WHERE comment_id IS NOT NULL;

ALTER TABLE staff_audit DROP CONSTRAINT staff_audit_action_check;
ALTER TABLE staff_audit ADD CONSTRAINT staff_audit_action_check CHECK (action IN (
    'job.rerun', 'jobs.rerun', 'job.cancel', 'queue.pause', 'queue.resume',
    'cashback.release', 'order.refund', 'participation.annul',
    'content.keep', 'content.hide', 'content.remove'));
