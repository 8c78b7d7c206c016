// Saving one question's answer, however it is given: a file question uploads its file, any
// other sends its choices and texts. The quiz runner and the survey both answer through it.
import { useSaveAnswer, useUploadAnswerFile } from "@/features/activities/api/research";
import { isFileQuestion, requestOf, type Draft } from "@/features/activities/research-answers";
import type { ResearchAnswer, ResearchQuestion } from "@/types/api";

export function useAnswerQuestion(researchId: number) {
  const save = useSaveAnswer(researchId);
  const upload = useUploadAnswerFile(researchId);

  const reset = () => {
    save.reset();
    upload.reset();
  };

  /** Sends the draft; `onSaved` gets the server's answer (none when a file answer has no new file). */
  const answer = (question: ResearchQuestion, draft: Draft, onSaved: (saved?: ResearchAnswer) => void) => {
    reset();
    if (!isFileQuestion(question)) {
      save.mutate({ questionId: question.id, ...requestOf(draft) }, { onSuccess: onSaved });
    } else if (draft.file) {
      upload.mutate({ questionId: question.id, file: draft.file }, { onSuccess: onSaved });
    } else {
      onSaved();
    }
  };

  return { answer, reset, isPending: save.isPending || upload.isPending, error: save.error ?? upload.error };
}
