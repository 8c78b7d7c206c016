// A theme suggested to the union (spec 002 "Political": 'Sugerir tema'; POST /political with
// a description). Success tells 'Sucesso' / 'Solicitação enviada com sucesso.'; a refusal
// shows its first message, else 'Erro', above the button.
import { useId, useState } from "react";
import { bindText } from "@/components/form/fields";
import { useForm, type FormRules } from "@/components/form/use-form";
import { useToast } from "@/components/toasts/use-toast";
import { suggestionFailureText, useSuggestTheme } from "@/features/political/api/political";
import { maxLength, MESSAGES, required } from "@/lib/validators";

export const SUGGEST_TITLE = "Sugerir tema";
export const SUGGESTION_MAX = 1000;
export const SENT_TITLE = "Sucesso";
export const SENT_TEXT = "Solicitação enviada com sucesso.";
export const SEND_LABEL = "Enviar";
export const SENDING_LABEL = "Enviando...";

interface SuggestionValues {
  description: string;
}

const RULES: FormRules<SuggestionValues> = {
  description: [required, (value) => (value.trim() === "" ? MESSAGES.required : undefined), maxLength(SUGGESTION_MAX)],
};

interface SuggestThemeFormProps {
  /** Called once the suggestion was taken (after the 'Sucesso' toast). */
  onSent: () => void;
  /** A 'Cancelar' button beside 'Enviar' (the dialog's). */
  onCancel?: () => void;
}

export function SuggestThemeForm({ onSent, onCancel }: SuggestThemeFormProps) {
  const form = useForm<SuggestionValues>({ description: "" }, RULES);
  const send = useSuggestTheme();
  const showToast = useToast();
  const [failure, setFailure] = useState<string | null>(null);
  const id = useId();
  const errorId = `${id}-error`;
  const description = bindText(form, "description");

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    send.mutate(
      { description: values.description.trim() },
      {
        onSuccess: (created) => {
          showToast({ title: SENT_TITLE, text: created.message || SENT_TEXT });
          onSent();
        },
        onError: (error) => setFailure(suggestionFailureText(error)),
      },
    );
  });

  return (
    <form className="political-form" onSubmit={submit} noValidate>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          Descrição
        </label>
        <textarea
          id={id}
          className="field__input political-form__description"
          rows={5}
          value={description.value}
          onChange={(event) => description.onChange(event.target.value)}
          onBlur={description.onBlur}
          aria-invalid={description.error ? true : undefined}
          aria-describedby={description.error ? errorId : undefined}
        />
        {description.error ? (
          <span id={errorId} className="field__error">
            {description.error}
          </span>
        ) : null}
      </div>
      {failure !== null ? (
        <p className="political-form__failure" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="political-actions">
        {onCancel ? (
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancelar
          </button>
        ) : null}
        <button type="submit" className="button button--primary" disabled={send.isPending} aria-busy={send.isPending}>
          {send.isPending ? SENDING_LABEL : SEND_LABEL}
        </button>
      </div>
    </form>
  );
}
