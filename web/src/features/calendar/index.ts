// The calendar's public surface for other features (a desk's 'eventos' lists the station's
// schedules): the schedules query, the dates it is asked with, and an event's page.
export { schedulesPath, useSchedules } from "./api/get-schedules";
export { addDays, formatMoment, queryWindow, todayIn } from "./calendar-dates";
export { schedulePath } from "./components/schedule-link";
