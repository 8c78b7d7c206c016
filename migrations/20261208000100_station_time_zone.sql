-- A station's civil time (domain::shared::time): its days, participation windows, daily caps,
-- release schedule and members' ages. An IANA name exactly as the zone database spells it
-- ('America/Manaus'): PostgreSQL would also read abbreviations ('BRT'), POSIX forms
-- ('UTC-4') and any case, which chrono-tz and the browsers' Intl do not, so only a name
-- of pg_timezone_names is held (not its posix/ and right/ copies).
CREATE FUNCTION is_iana_time_zone(zone TEXT) RETURNS BOOLEAN
    LANGUAGE sql STABLE
    AS $$
        SELECT zone NOT LIKE 'posix/%' AND zone NOT LIKE 'right/%'
           AND EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = zone)
    $$;

ALTER TABLE stations
    ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'America/Sao_Paulo'
        -- The default needs no look-up: pg_timezone_names reads every zone file.
        CHECK (time_zone = 'America/Sao_Paulo' OR is_iana_time_zone(time_zone));

COMMENT ON COLUMN cashback_schedules.expression IS
    'A cron expression with seconds, read in the station''s time zone (stations.time_zone).';
