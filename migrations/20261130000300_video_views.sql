-- Watching an activity's videos (spec 001 "Videos", "user_videos"): the server judges a
-- "viewed" claim itself, so it needs each video's length and what the member played.

-- Every video's length. Rows written before this column get 60 s, a length a six-second
-- demo clip can only over-state (its viewer then waits longer, never shorter); new videos
-- state their own (domain::activities::videos::NewVideo).
ALTER TABLE action_videos
    ADD COLUMN duration_seconds INTEGER NOT NULL DEFAULT 60 CHECK (duration_seconds > 0);
ALTER TABLE action_videos ALTER COLUMN duration_seconds DROP DEFAULT;

-- One row per member and video: the current watch (`started_at`, set by the first report
-- after none was running), the milliseconds the player reported as played in it (a union
-- of ranges, so replaying a part counts once), and the view. `viewed_once` and
-- `has_viewed` are the spec's fields; `viewed_at` is when the server accepted the current
-- view. A playlist participation that a later one can follow (a `limitPerUser`) spends
-- the views it used: the watch, the ranges and `viewed_at` are cleared, so the next one
-- needs the videos watched again.
CREATE TABLE video_views (
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    video_id    BIGINT NOT NULL REFERENCES action_videos (id) ON DELETE CASCADE,
    action_id   BIGINT NOT NULL REFERENCES actions (id) ON DELETE CASCADE,
    started_at  TIMESTAMPTZ,
    played      int4multirange NOT NULL DEFAULT '{}',
    viewed_once BOOLEAN NOT NULL DEFAULT false,
    has_viewed  BOOLEAN NOT NULL DEFAULT false,
    viewed_at   TIMESTAMPTZ,
    PRIMARY KEY (user_id, video_id),
    CHECK (viewed_once OR viewed_at IS NULL)
);

CREATE INDEX video_views_member_action ON video_views (user_id, action_id);
