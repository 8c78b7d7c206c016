// 'Solicitar agendamento' (spec 002 "Legal appointments"): the preferred weekday among the
// desk's days and what it is about; sent, the dialog turns to its success state ('Sua
// solicitação foi realizada com sucesso!'). A refusal shows its first message (beside the
// field it names, else as a toast), or 'Erro' without one.
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { SelectField } from "@/components/form/fields";
import { Modal } from "@/components/modal";
import { useToast } from "@/components/toasts/use-toast";
import { useRequestAppointment } from "@/features/services/api/services";
import type { CaseDesk } from "@/features/services/desks";
import {
  DESCRIPTION_MAX,
  DESCRIPTION_TOO_LONG_TEXT,
  REQUEST_FAILED_TEXT,
  REQUEST_SENT_TEXT,
  REQUEST_SENT_TITLE,
  REQUEST_TITLE,
  REQUIRED_TEXT,
} from "@/features/services/components/service-texts";
import { ApiError, ERROR_TOAST_TITLE, errorTextFromBody, INTERNAL_SERVER_ERROR_TEXT } from "@/lib/api-client";

/** The days each desk attends (domain::services::AppointmentService::weekdays). */
export const DESK_WEEKDAYS: Record<CaseDesk, readonly string[]> = {
  legal: ["Segunda-feira", "Terça-feira", "Quarta-feira", "Quinta-feira", "Sexta-feira"],
  accounting: ["Quinta-feira"],
};

export const DAY_LABEL = "Dia de preferência";
export const DESCRIPTION_LABEL = "Descrição";
export const SEND_BUTTON = "Enviar solicitação";
export const CLOSE_BUTTON = "Fechar";

type Field = "date" | "description";
type Errors = Partial<Record<Field, string>>;

function validate(date: string, description: string): Errors {
  const errors: Errors = {};
  if (date === "") errors.date = REQUIRED_TEXT;
  if (description.trim() === "") errors.description = REQUIRED_TEXT;
  else if (description.length > DESCRIPTION_MAX) errors.description = DESCRIPTION_TOO_LONG_TEXT;
  return errors;
}

/** The refusal's first message; a `field: message` line of the form's own fields goes beside it. */
function refusalOf(error: unknown): { field?: Field; text: string } {
  const first = error instanceof ApiError ? errorTextFromBody(error.body) : INTERNAL_SERVER_ERROR_TEXT;
  if (first === INTERNAL_SERVER_ERROR_TEXT) return { text: REQUEST_FAILED_TEXT };
  const line = /^(\w+): (.+)$/.exec(first);
  if (!line) return { text: first };
  const [, name = "", text = first] = line;
  return name === "date" || name === "description" ? { field: name, text } : { text };
}

export function RequestAppointmentDialog({ desk, onClose }: { desk: CaseDesk; onClose: () => void }) {
  const days = DESK_WEEKDAYS[desk];
  const [date, setDate] = useState(days.length === 1 ? (days[0] ?? "") : "");
  const [description, setDescription] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const request = useRequestAppointment(desk);
  const showToast = useToast();
  const descriptionId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const sent = request.isSuccess;

  useEffect(() => {
    if (sent) closeRef.current?.focus();
  }, [sent]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(date, description);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    request.mutate(
      { date, description: description.trim() },
      {
        onError: (error) => {
          const refusal = refusalOf(error);
          if (refusal.field) setErrors({ [refusal.field]: refusal.text });
          else showToast({ title: ERROR_TOAST_TITLE, text: refusal.text });
        },
      },
    );
  };

  if (sent) {
    return (
      <Modal title={REQUEST_TITLE} onDismiss={onClose}>
        <div className="service-dialog__success" role="status">
          <p className="service-dialog__success-title">{REQUEST_SENT_TITLE}</p>
          <p>{REQUEST_SENT_TEXT}</p>
        </div>
        <div className="service-dialog__actions">
          <button ref={closeRef} type="button" className="button button--primary" onClick={onClose}>
            {CLOSE_BUTTON}
          </button>
        </div>
      </Modal>
    );
  }

  const descriptionError = errors.description;
  return (
    <Modal title={REQUEST_TITLE} onDismiss={request.isPending ? undefined : onClose}>
      <form className="service-request" onSubmit={submit} noValidate>
        <SelectField label={DAY_LABEL} value={date} onChange={setDate} error={errors.date} required>
          {days.length > 1 && <option value="">Selecione um dia</option>}
          {days.map((day) => (
            <option key={day} value={day}>
              {day}
            </option>
          ))}
        </SelectField>
        <div className="field">
          <label className="field__label" htmlFor={descriptionId}>
            {DESCRIPTION_LABEL}
          </label>
          <textarea
            id={descriptionId}
            className="field__input service-request__description"
            value={description}
            rows={5}
            maxLength={DESCRIPTION_MAX}
            required
            aria-invalid={descriptionError ? true : undefined}
            aria-describedby={`${descriptionId}-count${descriptionError ? ` ${descriptionId}-error` : ""}`}
            onChange={(event) => setDescription(event.target.value)}
          />
          <span id={`${descriptionId}-count`} className="field__hint">
            {description.length}/{DESCRIPTION_MAX} caracteres
          </span>
          {descriptionError && (
            <span id={`${descriptionId}-error`} className="field__error">
              {descriptionError}
            </span>
          )}
        </div>
        <div className="service-dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={request.isPending}>
            Voltar
          </button>
          <button type="submit" className="button button--primary" disabled={request.isPending} aria-busy={request.isPending}>
            {request.isPending ? "Enviando..." : SEND_BUTTON}
          </button>
        </div>
      </form>
    </Modal>
  );
}
