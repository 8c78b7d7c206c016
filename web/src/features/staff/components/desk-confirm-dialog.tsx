// Confirming (or re-scheduling) an appointment: the day and hour on the station's clock,
// sent with the station's offset, and the office that attends. The member is e-mailed the
// date; a refusal (a past date, an office of another desk, a state that no longer allows it)
// is shown in the dialog in the API's words.
import { useState } from "react";
import { SelectField, TextField } from "@/components/form/fields";
import { Modal } from "@/components/modal";
import { useSnackbar } from "@/components/toasts/use-toast";
import { useConfirmAppointment, useDeskOffices } from "@/features/staff/api/desk";
import type { DeskGrant } from "@/features/staff/desk-labels";
import type { DeskAppointment } from "@/types/api";
import { todayInZone, wallClockOf, zonedInstant } from "@/features/staff/desk-time";
import { toastForError } from "@/lib/api-client";
import { MESSAGES } from "@/lib/validators";

export const APPOINTMENT_CONFIRMED = "Agendamento confirmado.";
export const NO_OFFICE = "Sem escritório";

interface Values {
  date: string;
  time: string;
  officeId: string;
}

function initialValues(appointment: DeskAppointment, timeZone: string): Values {
  const scheduled = appointment.scheduled_at ? wallClockOf(appointment.scheduled_at, timeZone) : null;
  return {
    date: scheduled?.date ?? "",
    time: scheduled?.time ?? "",
    officeId: appointment.office ? String(appointment.office.id) : "",
  };
}

export function ConfirmAppointmentDialog({
  appointment,
  grant,
  timeZone,
  onClose,
}: {
  appointment: DeskAppointment;
  grant: DeskGrant;
  timeZone: string;
  onClose: () => void;
}) {
  const offices = useDeskOffices(grant.station_id, grant.desk);
  const confirm = useConfirmAppointment();
  const showSnackbar = useSnackbar();
  const [values, setValues] = useState(() => initialValues(appointment, timeZone));
  const [submitted, setSubmitted] = useState(false);
  const officeList = offices.data ?? [];
  // The only office of the desk is the one that attends, unless staff choose none.
  const [officeTouched, setOfficeTouched] = useState(appointment.office !== null);
  const onlyOffice = officeList.length === 1 ? officeList[0] : undefined;
  const officeId = !officeTouched && onlyOffice ? String(onlyOffice.id) : values.officeId;

  const instant = zonedInstant({ date: values.date, time: values.time }, timeZone);
  const errors = {
    date: values.date === "" ? MESSAGES.required : instant === null && values.time !== "" ? "Data inválida" : undefined,
    time: values.time === "" ? MESSAGES.required : undefined,
  };
  const rescheduling = appointment.status === "confirmed";
  const title = `${rescheduling ? "Reagendar" : "Confirmar"} o agendamento ${appointment.id}`;

  return (
    <Modal title={title} onDismiss={confirm.isPending ? undefined : onClose}>
      <form
        className="desk-dialog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (instant === null || errors.date || errors.time) return;
          confirm.mutate(
            { id: appointment.id, confirmation: { scheduled_at: instant, office_id: officeId === "" ? null : Number(officeId) } },
            {
              onSuccess: () => {
                showSnackbar(APPOINTMENT_CONFIRMED);
                onClose();
              },
            },
          );
        }}
      >
        <p>
          {appointment.member?.name ?? "Membro sem cadastro"}
          {appointment.preferred_day && ` · prefere ${appointment.preferred_day}`}
        </p>
        <TextField
          label="Data"
          type="date"
          min={todayInZone(timeZone)}
          value={values.date}
          onChange={(date) => setValues((current) => ({ ...current, date }))}
          error={submitted ? errors.date : undefined}
        />
        <TextField
          label="Horário"
          type="time"
          value={values.time}
          onChange={(time) => setValues((current) => ({ ...current, time }))}
          hint={`Horário da estação (${timeZone})`}
          error={submitted ? errors.time : undefined}
        />
        <SelectField
          label="Escritório"
          value={officeId}
          disabled={offices.isPending}
          onChange={(text) => {
            setOfficeTouched(true);
            setValues((current) => ({ ...current, officeId: text }));
          }}
        >
          <option value="">{NO_OFFICE}</option>
          {officeList.map((office) => (
            <option key={office.id} value={office.id}>
              {office.name}
            </option>
          ))}
        </SelectField>
        {offices.isError && <p className="ops-muted">Não foi possível carregar os escritórios.</p>}
        {confirm.isError && (
          <p className="ops-error-summary" role="alert">
            {toastForError(confirm.error).text}
          </p>
        )}
        <div className="modal__actions">
          <button type="submit" className="button button--primary" disabled={confirm.isPending} aria-busy={confirm.isPending}>
            {rescheduling ? "Reagendar" : "Confirmar agendamento"}
          </button>
          <button type="button" className="button button--secondary" disabled={confirm.isPending} onClick={onClose}>
            Voltar
          </button>
        </div>
      </form>
    </Modal>
  );
}
