// How the console tells what a staff action was (GET /api/ops/audit).
import { countOf, formatReais } from "@/features/staff/format";
import { isJobState, JOB_STATE_LABELS } from "@/features/staff/job-states";
import type { OpsAuditAction, OpsAuditEntry } from "@/types/api";

export const AUDIT_ACTION_LABELS: Record<OpsAuditAction, string> = {
  "job.rerun": "Reexecutou a tarefa",
  "jobs.rerun": "Reexecutou tarefas em lote",
  "job.cancel": "Cancelou a tarefa",
  "queue.pause": "Pausou a fila",
  "queue.resume": "Retomou a fila",
  "cashback.release": "Liberou cashback",
  "order.refund": "Estornou o pedido",
  "participation.annul": "Anulou a participação",
  "content.keep": "Manteve o conteúdo denunciado",
  "content.hide": "Ocultou o conteúdo",
  "content.remove": "Removeu o conteúdo",
  "subscription.retry": "Cobrou a assinatura de novo",
  "subscription.cancel": "Cancelou a assinatura",
  "topup.confirm": "Confirmou a recarga",
  "topup.reject": "Recusou a recarga",
  "topup.refund": "Estornou a recarga",
  "support.answer": "Respondeu a mensagem de suporte",
  "appointment.confirm": "Confirmou o agendamento",
  "appointment.done": "Concluiu o agendamento",
  "appointment.absent": "Registrou ausência no agendamento",
  "appointment.cancel": "Cancelou o agendamento",
  "case.record": "Registrou o processo",
  "health.copay": "Registrou a coparticipação",
  "news.publish": "Publicou a notícia",
  "services.import": "Enviou uma importação",
};

export function auditActionLabel(action: string): string {
  return action in AUDIT_ACTION_LABELS ? AUDIT_ACTION_LABELS[action as OpsAuditAction] : action;
}

function text(value: unknown): string | null {
  if (typeof value === "string" && value.trim() !== "") return value;
  if (typeof value === "number") return String(value);
  return null;
}

function filterText(filter: unknown): string | null {
  if (typeof filter !== "object" || filter === null) return null;
  const { queue, state, q, from, to, station_id } = filter as Record<string, unknown>;
  const parts: string[] = [];
  if (text(queue)) parts.push(`fila ${text(queue)}`);
  if (typeof state === "string" && isJobState(state)) parts.push(`estado ${JOB_STATE_LABELS[state]}`);
  if (text(from)) parts.push(`de ${text(from)}`);
  if (text(to)) parts.push(`até ${text(to)}`);
  if (text(q)) parts.push(`texto "${text(q)}"`);
  if (text(station_id)) parts.push(`estação ${text(station_id)}`);
  return parts.length > 0 ? parts.join(", ") : "sem filtro";
}

/** What an entry's details add: the queue and earlier state, the bulk filter and count, the station. */
export function auditDetailsText(entry: OpsAuditEntry): string {
  // Free-form JSON in the contract: each action's keys are read defensively below.
  const details: Record<string, unknown> = isRecord(entry.details) ? entry.details : {};
  switch (entry.action) {
    case "queue.pause":
    case "queue.resume":
      return text(details.queue) ? `Fila ${text(details.queue)}` : "";
    case "job.rerun":
    case "job.cancel": {
      const parts: string[] = [];
      if (text(details.queue)) parts.push(`Fila ${text(details.queue)}`);
      const before = details.state_before;
      if (typeof before === "string" && isJobState(before)) parts.push(`antes: ${JOB_STATE_LABELS[before]}`);
      return parts.join(", ");
    }
    case "jobs.rerun": {
      const count = typeof details.count === "number" ? details.count : entry.job_ids.length;
      return `${countOf(count, "tarefa", "tarefas")} (${filterText(details.filter) ?? "sem filtro"})`;
    }
    case "cashback.release": {
      const station = text(details.station_id) ?? text(entry.station_id);
      return station ? `Estação ${station}` : "";
    }
    case "subscription.retry":
    case "subscription.cancel": {
      const parts: string[] = [];
      if (text(details.subscription_id)) parts.push(`Assinatura ${text(details.subscription_id)}`);
      if (text(details.user_id)) parts.push(`membro ${text(details.user_id)}`);
      return parts.join(", ");
    }
    case "topup.confirm":
    case "topup.reject":
    case "topup.refund": {
      const parts: string[] = [];
      if (text(details.topup_id)) parts.push(`Recarga ${text(details.topup_id)}`);
      if (text(details.user_id)) parts.push(`membro ${text(details.user_id)}`);
      if (typeof details.amount_cents === "number") parts.push(formatReais(details.amount_cents));
      // A refund says what it took back from the balance and what became a debt.
      if (typeof details.taken_cents === "number") parts.push(`retirado do saldo ${formatReais(details.taken_cents)}`);
      if (typeof details.owed_cents === "number" && details.owed_cents > 0) parts.push(`débito ${formatReais(details.owed_cents)}`);
      return parts.join(", ");
    }
    case "support.answer": {
      const parts: string[] = [];
      if (text(details.support_message_id)) parts.push(`Mensagem ${text(details.support_message_id)}`);
      parts.push(text(details.user_id) ? `membro ${text(details.user_id)}` : "visitante");
      return parts.join(", ");
    }
    default:
      // An action this console does not know yet: its label is the raw name, no details.
      return "";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
