//! The station calendar (spec 002 "News, calendar..."; issue 30): the station's events
//! ("schedules"), shown to its members in month, week, day and list views.

pub mod schedules;
