// The 'Solicitações' tab of a desk: the members' appointment requests, newest first, by
// state (?status=, paged ?page=). Staff confirm one with a date, an hour on the station's
// clock and the office that attends, re-schedule it, mark it done or the member absent, or
// cancel it (the member is e-mailed); on the health desk a done appointment takes its
// co-payment, half of which the member gets back as cashback. Viewers only read.
import { useState } from "react";
import { useSearchParams } from "react-router";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { SelectField } from "@/components/form/fields";
import { useSnackbar } from "@/components/toasts/use-toast";
import { useDeskAppointmentAction, useDeskAppointments, type DeskAppointmentAction } from "@/features/staff/api/desk";
import type { AppointmentStatus, DeskAppointment } from "@/types/api";
import { ConfirmAppointmentDialog } from "@/features/staff/components/desk-confirm-dialog";
import { CopayDialog } from "@/features/staff/components/desk-copay-dialog";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { Pager } from "@/features/staff/components/pager";
import {
  APPOINTMENT_STATUS_BADGES,
  APPOINTMENT_STATUS_LABELS,
  APPOINTMENT_STATUSES,
  appointmentStatusOf,
  choiceLabel,
  choicesFor,
  formatCpf,
  serviceLabel,
  type AppointmentChoice,
  type DeskGrant,
} from "@/features/staff/desk-labels";
import { formatInZone } from "@/features/staff/desk-time";
import { countOf, formatReais } from "@/features/staff/format";
import { pageFromSearch } from "@/features/staff/job-filter";
import { formatDateTime } from "@/lib/dates";
import { formatServicePhone } from "@/lib/masks";

/** What each plain action asks, and says once done. */
const ACTION_TEXTS: Record<DeskAppointmentAction, { title: (id: number) => string; confirm: string; effect: string; done: string }> = {
  done: {
    title: (id) => `Marcar o agendamento ${id} como concluído?`,
    confirm: "Concluído",
    effect: "O atendimento fica registrado como realizado.",
    done: "Agendamento concluído.",
  },
  absent: {
    title: (id) => `Registrar que o membro não compareceu ao agendamento ${id}?`,
    confirm: "Não compareceu",
    effect: "O membro vê o agendamento como 'Não compareceu'.",
    done: "Ausência registrada.",
  },
  cancel: {
    title: (id) => `Cancelar o agendamento ${id}?`,
    confirm: "Cancelar agendamento",
    effect: "O membro recebe um e-mail avisando do cancelamento.",
    done: "Agendamento cancelado.",
  },
};

interface Pending {
  appointment: DeskAppointment;
  choice: AppointmentChoice;
}

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function AppointmentCard({
  appointment,
  grant,
  timeZone,
  busy,
  onChoose,
}: {
  appointment: DeskAppointment;
  grant: DeskGrant;
  timeZone: string;
  busy: boolean;
  onChoose: (pending: Pending) => void;
}) {
  const headingId = `desk-appointment-${appointment.id}`;
  const status = appointmentStatusOf(appointment.status);
  const badge = status ? APPOINTMENT_STATUS_BADGES[status] : null;
  const choices = grant.can_act ? choicesFor(appointment, grant.desk) : [];
  return (
    <article className="ops-card desk-appointment" aria-labelledby={headingId}>
      <header className="ops-card__header">
        <h2 className="desk-card__title" id={headingId}>
          Nº {appointment.id} · {appointment.member?.name ?? "Sem cadastro"}
        </h2>
        <span className={badge ? `ops-badge ops-badge--${badge}` : "ops-badge"}>{status ? APPOINTMENT_STATUS_LABELS[status] : appointment.status}</span>
      </header>
      <dl className="ops-facts desk-facts">
        {grant.desk === "health" && <Fact term="Serviço">{serviceLabel(appointment.service)}</Fact>}
        <Fact term="CPF">{formatCpf(appointment.cpf)}</Fact>
        {appointment.member && <Fact term="E-mail">{appointment.member.email}</Fact>}
        {appointment.phone && <Fact term="Telefone">{formatServicePhone(appointment.phone)}</Fact>}
        <Fact term="Dia preferido">{appointment.preferred_day ?? "—"}</Fact>
        <Fact term="Data marcada">{formatInZone(appointment.scheduled_at, timeZone)}</Fact>
        <Fact term="Escritório">{appointment.office?.name ?? "—"}</Fact>
        <Fact term="Solicitado em">{formatDateTime(appointment.created_at)}</Fact>
        {appointment.cancelled_by && <Fact term="Cancelado por">{appointment.cancelled_by === "member" ? "Membro" : "Equipe"}</Fact>}
        {appointment.copay && (
          <Fact term="Coparticipação">
            {formatReais(appointment.copay.amount_cents)} (cashback de {formatReais(appointment.copay.cashback_cents)})
          </Fact>
        )}
      </dl>
      <p className="desk-text">{appointment.description}</p>
      {choices.length > 0 && (
        <div className="ops-actions desk-actions">
          {choices.map((choice) => (
            <button
              key={choice}
              type="button"
              className={choice === "confirm" || choice === "copay" ? "button button--primary" : "button button--secondary"}
              disabled={busy}
              onClick={() => onChoose({ appointment, choice })}
            >
              {choiceLabel(choice, appointment)}
            </button>
          ))}
        </div>
      )}
    </article>
  );
}

function ActionDialog({ pending, onClose }: { pending: Pending & { choice: DeskAppointmentAction }; onClose: () => void }) {
  const act = useDeskAppointmentAction();
  const showSnackbar = useSnackbar();
  const texts = ACTION_TEXTS[pending.choice];
  const { appointment } = pending;
  return (
    <ConfirmDialog
      title={texts.title(appointment.id)}
      confirmLabel={texts.confirm}
      onConfirm={() =>
        act.mutate(
          { id: appointment.id, action: pending.choice },
          { onSuccess: () => showSnackbar(texts.done), onSettled: onClose },
        )
      }
      onCancel={onClose}
      busy={act.isPending}
    >
      <p>
        {appointment.member?.name ?? `CPF ${formatCpf(appointment.cpf)}`}: {appointment.description}
      </p>
      <p>{texts.effect} A ação fica registrada na auditoria.</p>
    </ConfirmDialog>
  );
}

function isPlainAction(pending: Pending): pending is Pending & { choice: DeskAppointmentAction } {
  return pending.choice === "done" || pending.choice === "absent" || pending.choice === "cancel";
}

function AppointmentList({
  grant,
  timeZone,
  status,
  page,
  onPage,
}: {
  grant: DeskGrant;
  timeZone: string;
  status: AppointmentStatus | null;
  page: number;
  onPage: (page: number) => void;
}) {
  const list = useDeskAppointments(grant.station_id, grant.desk, status, page);
  const [pending, setPending] = useState<Pending | null>(null);
  const close = () => setPending(null);

  if (list.data === undefined) {
    if (list.isError) return <OpsError title="Não foi possível carregar as solicitações." query={list} />;
    return <OpsLoading label="Carregando solicitações" />;
  }
  if (list.data.appointments.length === 0) {
    return <OpsEmpty text={status ? "Nenhuma solicitação com este filtro." : "Nenhuma solicitação neste atendimento."} />;
  }
  return (
    <>
      <p className="ops-muted">
        {countOf(list.data.total, "solicitação", "solicitações")} · datas marcadas no horário da estação ({timeZone})
      </p>
      <div className="desk-list__cards" aria-busy={list.isFetching && list.isPlaceholderData}>
        {list.data.appointments.map((appointment) => (
          <AppointmentCard
            key={appointment.id}
            appointment={appointment}
            grant={grant}
            timeZone={timeZone}
            busy={pending !== null}
            onChoose={setPending}
          />
        ))}
      </div>
      <Pager page={page} perPage={list.data.per_page} total={list.data.total} onPage={onPage} />
      {pending?.choice === "confirm" && (
        <ConfirmAppointmentDialog appointment={pending.appointment} grant={grant} timeZone={timeZone} onClose={close} />
      )}
      {pending?.choice === "copay" && <CopayDialog appointment={pending.appointment} onClose={close} />}
      {pending && isPlainAction(pending) && <ActionDialog pending={pending} onClose={close} />}
    </>
  );
}

export function DeskAppointments({ grant, timeZone }: { grant: DeskGrant; timeZone: string }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const status = appointmentStatusOf(searchParams.get("status"));
  const page = pageFromSearch(searchParams);

  const apply = (nextStatus: AppointmentStatus | null, nextPage = 1) =>
    setSearchParams((params) => {
      if (nextStatus) params.set("status", nextStatus);
      else params.delete("status");
      if (nextPage > 1) params.set("page", String(nextPage));
      else params.delete("page");
      return params;
    });

  return (
    <>
      <form className="ops-filters" role="search" aria-label="Filtrar solicitações" onSubmit={(event) => event.preventDefault()}>
        <SelectField label="Situação" value={status ?? ""} onChange={(text) => apply(appointmentStatusOf(text))}>
          <option value="">Todas</option>
          {APPOINTMENT_STATUSES.map((option) => (
            <option key={option} value={option}>
              {APPOINTMENT_STATUS_LABELS[option]}
            </option>
          ))}
        </SelectField>
      </form>
      <AppointmentList grant={grant} timeZone={timeZone} status={status} page={page} onPage={(next) => apply(status, next)} />
    </>
  );
}
