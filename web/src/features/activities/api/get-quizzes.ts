// The quiz list: the station's published quizzes (type 6), with what the member may do.
import { useQuery } from "@tanstack/react-query";
import { researchKeys } from "@/features/activities/api/research-keys";
import { useMemberScope } from "@/features/activities/api/member-scope";
import { api } from "@/lib/api-client";
import type { QuizCard } from "@/types/api";

export function useQuizzes() {
  const { stationId, userId } = useMemberScope();
  return useQuery({
    queryKey: researchKeys.quizzes(stationId, userId),
    queryFn: ({ signal }) => api.get<QuizCard[]>(`/quizzes/establishment/${stationId}`, { signal }),
  });
}
