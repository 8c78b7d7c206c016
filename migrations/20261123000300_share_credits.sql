-- The share credits a sharer earned: one row per (share activity, sharer, visitor network),
-- written in the transaction that earns the credit (and enqueues its points.credit job).
-- The daily cap counts these rows by day; it used to count job_records, which job retention
-- prunes, so a pruned day's credits stopped counting. A row lives as long as its credit.
CREATE TABLE share_credits (
    station_id     BIGINT NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    action_id      BIGINT NOT NULL REFERENCES actions (id) ON DELETE CASCADE,
    sharer_user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The keyed hash of the visitor's network (engagement::sharing::network_key).
    network        TEXT NOT NULL CHECK (length(network) BETWEEN 1 AND 100),
    earned_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (action_id, sharer_user_id, network)
);

CREATE INDEX share_credits_by_day ON share_credits (action_id, sharer_user_id, earned_at);

-- The credits earned before this table: queued ones (job_records, while retention keeps
-- them) and written ones (credit_lots), keyed `activity:{action}:{sharer}:{network}:share`.
INSERT INTO share_credits (station_id, action_id, sharer_user_id, network, earned_at)
SELECT a.station_id, a.id, u.id, e.network, min(e.earned_at)
  FROM (SELECT split_part(r.subject_id, ':', 2) AS action_id,
               split_part(r.subject_id, ':', 3) AS sharer_id,
               split_part(r.subject_id, ':', 4) AS network,
               r.created_at AS earned_at
          FROM job_records r
         WHERE r.subject_kind = 'credit' AND r.subject_id ~ '^activity:[0-9]+:[0-9]+:[^:]+:share$'
        UNION ALL
        SELECT split_part(l.source_id, ':', 1), split_part(l.source_id, ':', 2),
               split_part(l.source_id, ':', 3), l.created_at
          FROM credit_lots l
         WHERE l.source_kind = 'activity' AND l.rule = 'share'
           AND l.source_id ~ '^[0-9]+:[0-9]+:[^:]+$') e
  JOIN actions a ON a.id = e.action_id::bigint
  JOIN users u ON u.id = e.sharer_id::bigint AND u.station_id = a.station_id
 GROUP BY a.station_id, a.id, u.id, e.network;
