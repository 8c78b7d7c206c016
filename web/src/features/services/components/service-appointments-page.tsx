// A desk's appointments by the member's CPF (spec 002 "Legal appointments"): the upcoming
// ones, then a collapsible 'Histórico de atendimentos', and 'Solicitar agendamento'. Each
// shows its status as a label ('Aguardando confirmação', 'Agendado', 'Concluído', 'Não
// compareceu', 'Cancelado'). A legal one the API marks `cancelavel` (requested, or confirmed
// more than 48 hours ahead) has 'Cancelar'; after a cancel, its answer or 'Erro ao cancelar
// agendamento', the list is read again 2 seconds later (the spec reloads the page).
import { useEffect, useId, useRef, useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Skeletons } from "@/components/list-page";
import { useSnackbar, useToast } from "@/components/toasts/use-toast";
import { serviceKeys, useAppointments, useCancelLegalAppointment } from "@/features/services/api/services";
import type { CaseDesk } from "@/features/services/desks";
import type { ServiceAppointment } from "@/types/api";
import { RequestAppointmentDialog } from "@/features/services/components/request-appointment-dialog";
import {
  CANCEL_BUTTON,
  CANCEL_FAILED_TEXT,
  CANCELLED_TEXT,
  HISTORY_TITLE,
  NO_APPOINTMENTS_TEXT,
  NO_UPCOMING_TEXT,
  RELOAD_AFTER_CANCEL_MS,
  REQUEST_TITLE,
  UPCOMING_TITLE,
} from "@/features/services/components/service-texts";
import { useStation } from "@/features/stations";
import { ApiError, ERROR_TOAST_TITLE, errorTextFromBody, INTERNAL_SERVER_ERROR_TEXT } from "@/lib/api-client";
import { useQueryClient } from "@tanstack/react-query";
import "./services.css";

export const APPOINTMENTS_TITLE = "Agendamentos";
export const CANCEL_QUESTION = "Deseja cancelar este agendamento?";
export const CONFIRM_CANCEL_BUTTON = "Sim, cancelar";

/** Upcoming: awaiting its date, or confirmed for a moment still ahead; the rest is history. */
export function isUpcoming(appointment: ServiceAppointment, now: number = Date.now()): boolean {
  if (appointment.status === "requested") return true;
  if (appointment.status !== "confirmed" || appointment.data === null) return false;
  return new Date(appointment.data).getTime() > now;
}

/** "03/12/2026 às 09:00" on the station's clock; 'Data a confirmar' before the desk sets it. */
export function appointmentWhen(appointment: ServiceAppointment, timeZone: string): string {
  if (appointment.data === null) return "Data a confirmar";
  const day = new Intl.DateTimeFormat("pt-BR", { timeZone, day: "2-digit", month: "2-digit", year: "numeric" }).format(new Date(appointment.data));
  return appointment.horaInicio ? `${day} às ${appointment.horaInicio}` : day;
}

/** The cancel's refusal: its first message, else the spec's fallback. */
export function cancelFailureText(error: unknown): string {
  if (error instanceof ApiError) {
    const text = errorTextFromBody(error.body);
    if (text !== INTERNAL_SERVER_ERROR_TEXT) return text;
  }
  return CANCEL_FAILED_TEXT;
}

interface AppointmentCardProps {
  appointment: ServiceAppointment;
  timeZone: string;
  /** Absent where the desk has no cancel (accounting). */
  onCancel?: () => void;
}

function AppointmentCard({ appointment, timeZone, onCancel }: AppointmentCardProps) {
  const headingId = useId();
  return (
    <li className="service-card service-appointment">
      <article aria-labelledby={headingId}>
        <h3 id={headingId} className="service-card__title">
          {appointmentWhen(appointment, timeZone)}
        </h3>
        <p>
          <span className={`service-status service-status--${appointment.status}`}>{appointment.situacao}</span>
        </p>
        <dl className="service-facts">
          {appointment.diaPreferido && (
            <div>
              <dt>Dia de preferência</dt>
              <dd>{appointment.diaPreferido}</dd>
            </div>
          )}
          {appointment.descricao && (
            <div>
              <dt>Descrição</dt>
              <dd>{appointment.descricao}</dd>
            </div>
          )}
          {appointment.escritorio && (
            <div>
              <dt>Escritório</dt>
              <dd>{appointment.escritorio.nome}</dd>
            </div>
          )}
        </dl>
        {onCancel && appointment.cancelavel && (
          <button type="button" className="button button--secondary service-appointment__cancel" aria-describedby={headingId} onClick={onCancel}>
            {CANCEL_BUTTON}
          </button>
        )}
      </article>
    </li>
  );
}

function AppointmentList({ label, appointments, timeZone, onCancel }: { label: string; appointments: ServiceAppointment[]; timeZone: string; onCancel?: (appointment: ServiceAppointment) => void }) {
  return (
    <ul className="service-cards" aria-label={label}>
      {appointments.map((appointment) => (
        <AppointmentCard key={appointment.id} appointment={appointment} timeZone={timeZone} onCancel={onCancel && (() => onCancel(appointment))} />
      ))}
    </ul>
  );
}

/** Cancels one after the member confirms; the list is read again 2 seconds after, whatever the answer. */
function useCancelFlow() {
  const cancel = useCancelLegalAppointment();
  const queryClient = useQueryClient();
  const showSnackbar = useSnackbar();
  const showToast = useToast();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const run = (appointment: ServiceAppointment, done: () => void) => {
    cancel.mutate(
      { escritorioId: appointment.escritorio?.id ?? null, appointmentId: appointment.id },
      {
        onSuccess: () => showSnackbar(CANCELLED_TEXT),
        onError: (error) => showToast({ title: ERROR_TOAST_TITLE, text: cancelFailureText(error) }),
        onSettled: () => {
          done();
          clearTimeout(timer.current);
          timer.current = setTimeout(() => void queryClient.invalidateQueries({ queryKey: serviceKeys.appointments("legal") }), RELOAD_AFTER_CANCEL_MS);
        },
      },
    );
  };
  return { run, busy: cancel.isPending };
}

export function ServiceAppointmentsPage({ desk }: { desk: CaseDesk }) {
  const appointments = useAppointments(desk);
  const timeZone = useStation().time_zone;
  const [requesting, setRequesting] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [cancelling, setCancelling] = useState<ServiceAppointment | null>(null);
  const cancelFlow = useCancelFlow();
  const historyId = useId();
  // Upcoming or history as of when the page opened (the server orders them the same way).
  const [now] = useState(() => Date.now());
  const canCancel = desk === "legal";

  const list = appointments.data ?? [];
  const upcoming = list.filter((appointment) => isUpcoming(appointment, now));
  const history = list.filter((appointment) => !isUpcoming(appointment, now));
  const onCancel = canCancel ? setCancelling : undefined;

  return (
    <section className="service-page">
      <h1 className="page-title">{APPOINTMENTS_TITLE}</h1>
      <p>
        <button type="button" className="button button--primary" aria-haspopup="dialog" onClick={() => setRequesting(true)}>
          {REQUEST_TITLE}
        </button>
      </p>
      {appointments.isPending ? (
        <Skeletons label="Carregando agendamentos" count={5} className="service-cards" itemClassName="service-skeletons__item skeleton-shimmer" />
      ) : list.length === 0 ? (
        <p className="list-page__empty">{NO_APPOINTMENTS_TEXT}</p>
      ) : (
        <>
          <section aria-labelledby={`${historyId}-upcoming`}>
            <h2 id={`${historyId}-upcoming`} className="service-section__title">
              {UPCOMING_TITLE}
            </h2>
            {upcoming.length === 0 ? (
              <p className="list-page__empty">{NO_UPCOMING_TEXT}</p>
            ) : (
              <AppointmentList label={UPCOMING_TITLE} appointments={upcoming} timeZone={timeZone} onCancel={onCancel} />
            )}
          </section>
          {history.length > 0 && (
            <section className="service-history">
              <h2 className="service-section__title">
                <button type="button" className="service-history__toggle" aria-expanded={historyOpen} aria-controls={historyId} onClick={() => setHistoryOpen((open) => !open)}>
                  {HISTORY_TITLE}
                </button>
              </h2>
              <div id={historyId} hidden={!historyOpen}>
                {historyOpen && <AppointmentList label={HISTORY_TITLE} appointments={history} timeZone={timeZone} onCancel={onCancel} />}
              </div>
            </section>
          )}
        </>
      )}
      {requesting && <RequestAppointmentDialog desk={desk} onClose={() => setRequesting(false)} />}
      {cancelling && (
        <ConfirmDialog
          title="Cancelar agendamento"
          confirmLabel={CONFIRM_CANCEL_BUTTON}
          onConfirm={() => cancelFlow.run(cancelling, () => setCancelling(null))}
          onCancel={() => setCancelling(null)}
          busy={cancelFlow.busy}
        >
          <p>{CANCEL_QUESTION}</p>
          <p>{appointmentWhen(cancelling, timeZone)}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
