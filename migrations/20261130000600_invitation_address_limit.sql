-- An address gets at most a few invitations of one station in 30 days, whoever sends them
-- (issue 14 review): `address_limit` is an address skipped for that, recorded like the
-- others so it counts toward its sender's daily limit.
ALTER TABLE invitation_mails DROP CONSTRAINT invitation_mails_outcome_check;
ALTER TABLE invitation_mails ADD CONSTRAINT invitation_mails_outcome_check
    CHECK (outcome IN ('mailed', 'member', 'suppressed', 'address_limit'));

CREATE INDEX invitation_mails_station_address ON invitation_mails (station_id, email_hash, sent_at)
    WHERE outcome = 'mailed';
