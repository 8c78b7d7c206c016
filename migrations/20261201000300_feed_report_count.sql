-- The reports table is the one count of an item's reports: the copies on posts and
-- comments were written and never read.
ALTER TABLE feed_posts DROP COLUMN report_count;
ALTER TABLE comments DROP COLUMN report_count;
