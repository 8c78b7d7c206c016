// /homepage/saude/agendamento-odontologia, -psicologia and -nutricionista (spec 002
// "Health", "Other forms"): a description, the preferred weekday among the service's own
// days and a phone masked (99) 9.9999-9999, sent as digits. Success replaces the form with
// 'Sucesso' / 'Solicitação enviada com sucesso.'; a refusal shows its first message, else
// 'Erro'. Only where the station offers health (`health_access`: routes.tsx gates it).
import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { bindText, SelectField, TextField } from "@/components/form/fields";
import { useForm, type Form, type FormRules } from "@/components/form/use-form";
import { ListPage } from "@/components/list-page";
import { requestFailureText, useRequestHealthAppointment } from "@/features/health/api/request-appointment";
import { BackToHealth } from "@/features/health/components/health-nav";
import { appointmentPhone } from "@/features/health/phone";
import { healthService, infoPath, type HealthService, type HealthServiceId } from "@/features/health/services";
import { digitsOf, maskServicePhone } from "@/lib/masks";
import { maxLength, MESSAGES, required } from "@/lib/validators";
import "./health.css";

export const DESCRIPTION_MAX = 1000;
export const SUCCESS_TITLE = "Sucesso";
export const SUCCESS_TEXT = "Solicitação enviada com sucesso.";
export const DAY_NOT_ATTENDED_TEXT = "Este serviço não atende neste dia.";
export const SEND_LABEL = "Solicitar agendamento";
export const SENDING_LABEL = "Enviando...";
export const ANOTHER_REQUEST_LABEL = "Fazer outra solicitação";

interface AppointmentValues {
  description: string;
  date: string;
  phone: string;
}

const EMPTY: AppointmentValues = { description: "", date: "", phone: "" };

function rulesFor(service: HealthService): FormRules<AppointmentValues> {
  return {
    description: [required, (value) => (value.trim() === "" ? MESSAGES.required : undefined), maxLength(DESCRIPTION_MAX)],
    date: [required, (value) => ((service.weekdays as readonly string[]).includes(value) ? undefined : DAY_NOT_ATTENDED_TEXT)],
    phone: [required, appointmentPhone],
  };
}

function SuccessView({ message, onAnother }: { message: string; onAnother: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form is gone: the reader is told, from the heading, what happened.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <section className="health-success" aria-labelledby="health-success-title">
      <h2 id="health-success-title" ref={headingRef} tabIndex={-1} className="health-success__title">
        {SUCCESS_TITLE}
      </h2>
      <p role="status">{message}</p>
      <div className="health-actions">
        <button type="button" className="button button--secondary" onClick={onAnother}>
          {ANOTHER_REQUEST_LABEL}
        </button>
        <BackToHealth />
      </div>
    </section>
  );
}

function AppointmentForm({ service, onSent }: { service: HealthService; onSent: (message: string) => void }) {
  const form = useForm<AppointmentValues>(EMPTY, rulesFor(service));
  const send = useRequestHealthAppointment(service);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit((values) => {
    setFailure(null);
    send.mutate(
      { description: values.description.trim(), date: values.date, phone: digitsOf(values.phone) },
      {
        onSuccess: (created) => onSent(created.message || SUCCESS_TEXT),
        onError: (error) => setFailure(requestFailureText(error)),
      },
    );
  });

  return (
    <form className="health-form" onSubmit={submit} noValidate>
      <div className="field">
        <DescriptionField form={form} />
      </div>
      <SelectField label="Dia da semana de preferência" {...bindText(form, "date")}>
        <option value="">Selecione</option>
        {service.weekdays.map((day) => (
          <option key={day} value={day}>
            {day}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Telefone"
        type="tel"
        inputMode="numeric"
        autoComplete="tel-national"
        placeholder="(99) 9.9999-9999"
        {...bindText(form, "phone", maskServicePhone)}
      />
      {failure !== null ? (
        <p className="health-form__failure" role="alert">
          {failure}
        </p>
      ) : null}
      <button type="submit" className="button button--primary" disabled={send.isPending} aria-busy={send.isPending}>
        {send.isPending ? SENDING_LABEL : SEND_LABEL}
      </button>
    </form>
  );
}

/** A labelled textarea whose message is tied to it, as TextField does for inputs. */
function DescriptionField({ form }: { form: Form<AppointmentValues> }) {
  const { value, onChange, onBlur, error } = bindText(form, "description");
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <>
      <label className="field__label" htmlFor={id}>
        Descrição
      </label>
      <textarea
        id={id}
        className="field__input health-form__description"
        rows={5}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error ? (
        <span id={errorId} className="field__error">
          {error}
        </span>
      ) : null}
    </>
  );
}

export function AppointmentFormPage({ serviceId }: { serviceId: HealthServiceId }) {
  const service = healthService(serviceId);
  const [sent, setSent] = useState<string | null>(null);
  // A new form (its values cleared) for each request.
  const [round, setRound] = useState(0);
  return (
    <ListPage title={service.formTitle}>
      <p className="health-intro">
        Atendimento {service.daysText}. Escolha o dia de sua preferência e entraremos em contato para confirmar o horário.{" "}
        <Link to={infoPath(service)}>Mais informações</Link>
      </p>
      {sent !== null ? (
        <SuccessView
          message={sent}
          onAnother={() => {
            setSent(null);
            setRound((current) => current + 1);
          }}
        />
      ) : (
        <>
          <AppointmentForm key={round} service={service} onSent={setSent} />
          <BackToHealth />
        </>
      )}
    </ListPage>
  );
}
