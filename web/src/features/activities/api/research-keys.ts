// The quizzes' and surveys' query keys: under activityKeys.all (a participation refreshes
// them with the activities), apart from activity-keys.ts, which the first load carries.
import { activityKeys } from "@/features/activities/api/activity-keys";

export const researchKeys = {
  research: (userId: number, id: number) => [...activityKeys.all, "research", userId, id] as const,
  pollResults: (userId: number, id: number) => [...activityKeys.all, "poll-results", userId, id] as const,
  quizzes: (stationId: number, userId: number) => [...activityKeys.all, "quizzes", stationId, userId] as const,
};
