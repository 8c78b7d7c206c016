// The station calendar, children of /homepage loaded when first opened.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

export const calendarMemberRoutes: RouteObject[] = [
  {
    path: "calendario",
    element: lazyScreen(async () => (await import("@/features/calendar/components/calendar-page")).CalendarPage),
  },
  {
    path: "calendario/:id",
    element: lazyScreen(async () => (await import("@/features/calendar/components/schedule-page")).SchedulePage),
  },
];
