// Quizzes and surveys (types 6 to 12): a research, its answers saved one by one in the
// member's open attempt (so the member resumes anywhere), the submission that closes the
// attempt as one participation, and a poll's results. The server judges and scores.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { activityKeys } from "@/features/activities/api/activity-keys";
import { researchKeys } from "@/features/activities/api/research-keys";
import { useMemberScope } from "@/features/activities/api/member-scope";
import { useSession } from "@/features/session";
import { invalidateWallet } from "@/features/wallet";
import { api, ApiError, NO_RESPONSE_STATUS } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type {
  AnswerRequest,
  PollResults,
  Research,
  ResearchAnswer,
  ResearchResult,
  ResearchSubmission,
} from "@/types/api";

/** What a failed upload says when the server's answer cannot be read (spec 001 section 8). */
export const UPLOAD_FAILED_TEXT = "Erro no upload";

export function useResearch(id: number) {
  const { userId } = useMemberScope();
  return useQuery({
    queryKey: researchKeys.research(userId, id),
    queryFn: ({ signal }) => api.get<Research>(`/research/${id}`, { signal }),
    enabled: Number.isSafeInteger(id) && id > 0,
    // The answers live on the server: a visit never starts from a copy left by an earlier one.
    gcTime: 0,
  });
}

/** Keeps the cached research in step with an answer the server saved (attempt, verdict, tried). */
function useKeepAnswer(researchId: number) {
  const queryClient = useQueryClient();
  const { userId } = useMemberScope();
  return (answer: ResearchAnswer) =>
    queryClient.setQueryData<Research>(researchKeys.research(userId, researchId), (research) =>
      research
        ? {
            ...research,
            attempt_id: answer.attempt_id,
            answers: [...research.answers.filter((saved) => saved.question_id !== answer.question_id), answer],
          }
        : research,
    );
}

export interface QuestionAnswer extends AnswerRequest {
  questionId: number;
}

/** Saves one answer; its refusal is the question's to show. */
export function useSaveAnswer(researchId: number) {
  const keepAnswer = useKeepAnswer(researchId);
  const queryClient = useQueryClient();
  const { userId } = useMemberScope();
  return useMutation({
    mutationFn: ({ questionId, ...answer }: QuestionAnswer) =>
      api.put<ResearchAnswer>(`/research/${researchId}/answers/${questionId}`, answer),
    meta: OWN_ERROR_TEXT,
    onSuccess: keepAnswer,
    onError: async (error) => {
      // Answered right elsewhere (another tab or device): show the server's state.
      if (error instanceof ApiError && error.status === 409) {
        await queryClient.invalidateQueries({ queryKey: researchKeys.research(userId, researchId) });
      }
    },
  });
}

// Sent as multipart by the API client; a failure to reach the server is the upload's own
// text (spec 001: 'Erro no upload').
async function uploadAnswerFile(researchId: number, questionId: number, file: File): Promise<ResearchAnswer> {
  const body = new FormData();
  body.append("file", file);
  try {
    return await api.post<ResearchAnswer>(`/research/${researchId}/answers/${questionId}/file`, body);
  } catch (error) {
    if (error instanceof ApiError && error.status === NO_RESPONSE_STATUS) {
      throw new ApiError(NO_RESPONSE_STATUS, UPLOAD_FAILED_TEXT);
    }
    throw error;
  }
}

export interface QuestionFile {
  questionId: number;
  file: File;
}

/** Uploads a video or file answer (question types 6 and 7); its refusal is the question's to show. */
export function useUploadAnswerFile(researchId: number) {
  const keepAnswer = useKeepAnswer(researchId);
  return useMutation({
    mutationFn: ({ questionId, file }: QuestionFile) => uploadAnswerFile(researchId, questionId, file),
    meta: OWN_ERROR_TEXT,
    onSuccess: keepAnswer,
  });
}

/** A submission closes the attempt: the activity, the lists and the member's points change. */
function useSubmission(path: "/answer-quiz" | "/answer") {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id;
  return useMutation({
    mutationFn: (submission: ResearchSubmission) => api.post<ResearchResult>(path, submission),
    meta: OWN_ERROR_TEXT,
    onSuccess: async () => {
      if (userId !== undefined) void invalidateWallet(queryClient, userId);
      await queryClient.invalidateQueries({ queryKey: activityKeys.all, refetchType: "none" });
    },
  });
}

/** Submits a quiz (type 6); the server scores it from the saved answers. */
export function useSubmitQuiz() {
  return useSubmission("/answer-quiz");
}

/** Submits a survey (types 7 to 12). */
export function useSubmitSurvey() {
  return useSubmission("/answer");
}

/** A poll's (type 10) results, which the server shows only to members who have answered. */
export function usePollResults(researchId: number) {
  const { userId } = useMemberScope();
  return useQuery({
    queryKey: researchKeys.pollResults(userId, researchId),
    queryFn: ({ signal }) => api.get<PollResults>(`/research/${researchId}/results`, { signal }),
  });
}
