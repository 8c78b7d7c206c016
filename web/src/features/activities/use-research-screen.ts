// What the quiz runner and the survey load before they show anything: the research and its
// activity (its name, feedback and availability), read together.
import { useActivity } from "@/features/activities/api/get-activity";
import { useResearch } from "@/features/activities/api/research";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { ApiError } from "@/lib/api-client";
import type { Activity, Research } from "@/types/api";

export type ResearchScreen =
  | { state: "loading" }
  | { state: "missing" }
  | { state: "ready"; research: Research; activity: Activity };

function isNotFound(error: Error | null): boolean {
  return error instanceof ApiError && error.status === 404;
}

export function useResearchScreen(researchId: number, actionId: number): ResearchScreen {
  const research = useResearch(researchId);
  const activity = useActivity(String(actionId));
  const error = research.error ?? activity.error;
  // A 404 is the not-found view, not a failure to report.
  useErrorToast(isNotFound(error) ? null : error);

  if (research.isPending || activity.isPending) return { state: "loading" };
  if (!research.data || !activity.data) return { state: "missing" };
  return { state: "ready", research: research.data, activity: activity.data };
}

/** A route's id, or null when it is not one (the screen then shows the not-found view). */
export function idOf(value: string | null | undefined): number | null {
  const id = Number(value);
  return value && Number.isSafeInteger(id) && id > 0 ? id : null;
}
