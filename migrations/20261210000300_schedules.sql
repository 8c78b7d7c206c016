-- The station calendar (issue 30; spec 002 "Schedule", docs/decisions.md "The station
-- calendar"): a station's events, shown to its members at /homepage/calendario. Only
-- published ones are shown; the back office writes them.
CREATE TABLE schedules (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    station_id      BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    name            TEXT NOT NULL CHECK (btrim(name) <> ''),
    description     TEXT NOT NULL DEFAULT '',
    -- An object key (domain::infra::objects), served as /api/media/{key}.
    image_key       TEXT,
    starts_at       TIMESTAMPTZ NOT NULL,
    ends_at         TIMESTAMPTZ NOT NULL,
    -- The spec's `day.description`: what the day is ("Feriado", "Dia do associado").
    day_description TEXT,
    published       BOOLEAN NOT NULL DEFAULT false,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT schedules_ends_after_start CHECK (ends_at >= starts_at)
);

-- The calendar's read: a station's published schedules overlapping a window.
CREATE INDEX schedules_station_window ON schedules (station_id, starts_at, ends_at)
    WHERE published;
