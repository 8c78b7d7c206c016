-- The visitors' landing page (issue 30; spec 002 section 2 "Landing page (visitors)",
-- docs/decisions.md "The station's landing page"): header slides, sections of nine types
-- with their items, and the station's about pages (/sobre/{id}). Every row carries its
-- `station_id`, and links to another row of the landing go through (station_id, id), so a
-- link can never reach another station's about page or section.

-- An about page: a title, plain text (paragraphs split on blank lines; no markup is ever
-- stored, so nothing needs sanitising on the way out) and an optional picture.
CREATE TABLE about_pages (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL DEFAULT 0,
    title      TEXT NOT NULL CHECK (btrim(title) <> '' AND length(title) <= 120),
    body       TEXT NOT NULL CHECK (length(body) <= 20000),
    image_key  TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (station_id, id),
    UNIQUE (station_id, title)
);

-- Where a slide's or an item's button leads (spec: nolink, login -> /login, signup ->
-- /cadastrar, additional -> /sobre/{id}, external -> the given URL, http or https only).
CREATE TABLE landing_slides (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id    BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    title         TEXT NOT NULL CHECK (length(title) <= 120),
    subtitle      TEXT CHECK (length(subtitle) <= 300),
    image_key     TEXT NOT NULL,
    link_type     TEXT NOT NULL DEFAULT 'nolink'
                  CHECK (link_type IN ('nolink', 'login', 'signup', 'additional', 'external')),
    external_link TEXT CHECK (external_link ~ '^https?://[^\s/?#]+[^\s]*$'),
    about_page_id BIGINT,
    button_label  TEXT CHECK (length(button_label) <= 40),
    FOREIGN KEY (station_id, about_page_id) REFERENCES about_pages (station_id, id),
    CHECK (link_type <> 'external' OR external_link IS NOT NULL),
    CHECK (link_type <> 'additional' OR about_page_id IS NOT NULL),
    UNIQUE (station_id, position)
);

CREATE TABLE landing_sections (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id       BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    position         INTEGER NOT NULL,
    -- 1 cards, 2 image/video/text blocks, 3 card carousel, 4 centred text, 5 public
    -- activities carousel, 6 app badges, 7 plans, 8 support form, 9 media only.
    type_id          SMALLINT NOT NULL CHECK (type_id BETWEEN 1 AND 9),
    title            TEXT CHECK (length(title) <= 160),
    subtitle         TEXT CHECK (length(subtitle) <= 600),
    title_color      TEXT CHECK (title_color ~ '^#[0-9A-Fa-f]{6}$'),
    text_color       TEXT CHECK (text_color ~ '^#[0-9A-Fa-f]{6}$'),
    background_type  TEXT NOT NULL DEFAULT 'color' CHECK (background_type IN ('image', 'color')),
    background_image TEXT,
    background_color TEXT CHECK (background_color ~ '^#[0-9A-Fa-f]{6}$'),
    CHECK (background_type <> 'image' OR background_image IS NOT NULL),
    UNIQUE (station_id, position),
    UNIQUE (station_id, id)
);

CREATE TABLE landing_items (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id    BIGINT NOT NULL,
    section_id    BIGINT NOT NULL,
    position      INTEGER NOT NULL,
    name          TEXT CHECK (length(name) <= 160),
    description   TEXT CHECK (length(description) <= 2000),
    image_key     TEXT,
    -- A stored video (served at /api/media/...) or a YouTube video's id.
    video_key     TEXT,
    video_id      TEXT CHECK (video_id ~ '^[A-Za-z0-9_-]{11}$'),
    link_type     TEXT NOT NULL DEFAULT 'nolink'
                  CHECK (link_type IN ('nolink', 'login', 'signup', 'additional', 'external')),
    external_link TEXT CHECK (external_link ~ '^https?://[^\s/?#]+[^\s]*$'),
    about_page_id BIGINT,
    button_label  TEXT CHECK (length(button_label) <= 40),
    image_left    BOOLEAN NOT NULL DEFAULT false,
    FOREIGN KEY (station_id, section_id) REFERENCES landing_sections (station_id, id)
        ON DELETE CASCADE,
    FOREIGN KEY (station_id, about_page_id) REFERENCES about_pages (station_id, id),
    CHECK (link_type <> 'external' OR external_link IS NOT NULL),
    CHECK (link_type <> 'additional' OR about_page_id IS NOT NULL),
    UNIQUE (section_id, position)
);

-- An about page a link points to is not deleted while the link stands (no ON DELETE):
-- the link is changed first.
CREATE INDEX landing_items_about ON landing_items (station_id, about_page_id);
CREATE INDEX landing_slides_about ON landing_slides (station_id, about_page_id);
