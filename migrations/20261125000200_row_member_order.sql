-- The home's rows read each row's activities in the row's order and stop at the page's
-- end (4 per category on the home): these indexes hold that order, so a page is a few
-- index entries instead of sorting the row's every activity (docs/decisions.md,
-- "Activities API performance").
CREATE INDEX category_actions_order ON category_actions (category_id, position, action_id);
CREATE INDEX journey_actions_order ON journey_actions (journey_id, position, action_id);
CREATE INDEX now_playing_actions_order ON now_playing_actions (now_playing_id, position, action_id);
