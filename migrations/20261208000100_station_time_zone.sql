-- A station's civil time (domain::shared::time): its days, participation windows, daily caps,
-- release schedule and members' ages. An IANA name; PostgreSQL refuses one it does not know
-- (`AT TIME ZONE` raises), so a typo never reaches the rules.
ALTER TABLE stations
    ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'America/Sao_Paulo'
        CHECK ((now() AT TIME ZONE time_zone) IS NOT NULL);

COMMENT ON COLUMN cashback_schedules.expression IS
    'A cron expression with seconds, read in the station''s time zone (stations.time_zone).';
