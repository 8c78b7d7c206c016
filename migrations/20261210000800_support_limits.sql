-- The hourly allowances of a support message's member, sender address and station are
-- counted from the stored messages (domain::support::within_limits): one index per count.
CREATE INDEX support_messages_station_recent ON support_messages (station_id, created_at);
CREATE INDEX support_messages_member_recent ON support_messages (user_id, created_at)
    WHERE user_id IS NOT NULL;
CREATE INDEX support_messages_email_recent ON support_messages (email, created_at);
