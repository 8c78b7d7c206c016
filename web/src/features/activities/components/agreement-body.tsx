// Type 15 (spec 001): the terms' checkbox, required, and the button that records the
// participation; once accepted, the feedback opens and leads home (spec 001: "then go to
// /homepage").
import { useState, type FormEvent } from "react";
import { CheckboxField } from "@/components/form/fields";
import { useAcceptAgreement } from "@/features/activities/api/agreement";
import { FeedbackDialog } from "@/features/activities/components/feedback-dialog";
import { toastForError } from "@/lib/api-client";
import { MESSAGES } from "@/lib/validators";
import type { Activity } from "@/types/api";

export const ACCEPTING_TEXT = "Enviando...";

export function AgreementBody({ activity }: { activity: Activity }) {
  const accept = useAcceptAgreement(activity.id);
  const [ticked, setTicked] = useState(false);
  const [tried, setTried] = useState(false);
  const terms = activity.agreements[0];
  if (activity.availability !== "open" || !terms) return null;
  const error = tried && !ticked ? MESSAGES.requiredCheckbox : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!ticked) return;
    accept.mutate();
  };

  return (
    <form className="agreement-form" onSubmit={submit} noValidate>
      <CheckboxField label={terms.checkbox} checked={ticked} onChange={setTicked} error={error} />
      {accept.isError && (
        <p className="field__error" role="alert">
          {toastForError(accept.error).text}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={accept.isPending} aria-busy={accept.isPending}>
        {accept.isPending ? ACCEPTING_TEXT : terms.button}
      </button>
      {accept.isSuccess && <FeedbackDialog activity={activity} returnTo="/homepage" onClose={accept.reset} />}
    </form>
  );
}
