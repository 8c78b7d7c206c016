-- Narrower copies of the stored images visitors and members see (issue 30, docs/decisions.md
-- "Image variants"), made by the `image.variants` job from the original's key. Every width
-- a browser may choose is a row, the original included (its own key at its own width), so
-- a srcset is the rows of one source and a source with any row has been processed (a
-- re-run adds nothing). Keyed by the object key, not by the row showing it: the same
-- picture may show in several places, and a row removed leaves the copies to its source.
CREATE TABLE image_variants (
    source_key TEXT NOT NULL CHECK (source_key <> ''),
    width      INTEGER NOT NULL CHECK (width > 0),
    height     INTEGER NOT NULL CHECK (height > 0),
    key        TEXT NOT NULL CHECK (key <> ''),
    bytes      BIGINT NOT NULL CHECK (bytes >= 0),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (source_key, width)
);
