-- The legal and accounting landings show a carousel of one of the station's activity
-- categories (spec 002 "Legal consultancy": the landing's category carousel, category 494
-- there; the accounting landing is built the same way). The category is chosen per desk,
-- never by a fixed id, and is always one of the desk's own station's: the composite key
-- refuses another station's. Deleting the category leaves the desk without a carousel. The
-- health and political pages have landings of their own, without a carousel.
ALTER TABLE participant_categories
    ADD CONSTRAINT participant_categories_id_station UNIQUE (id, station_id);

ALTER TABLE service_desks
    ADD COLUMN category_id BIGINT,
    ADD CONSTRAINT service_desks_category FOREIGN KEY (category_id, station_id)
        REFERENCES participant_categories (id, station_id) ON DELETE SET NULL (category_id),
    ADD CONSTRAINT service_desks_category_landing
        CHECK (category_id IS NULL OR service IN ('legal', 'accounting'));
