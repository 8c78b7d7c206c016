import { useState, type ReactNode } from "react";
import { useSnackbar } from "@/components/toasts/use-toast";
import { BULK_RERUN_MAX, useBulkRerun, useRerunnableCount } from "@/features/staff/api/jobs";
import { useOpsStations } from "@/features/staff/api/stations";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { countOf } from "@/features/staff/format";
import { isJobState, JOB_STATE_LABELS } from "@/features/staff/job-states";
import { formatDateTime } from "@/lib/dates";
import type { OpsJobFilter } from "@/types/api";

function filterLines(filter: OpsJobFilter, stationName: string | undefined): string[] {
  const lines: string[] = [];
  if (filter.queue) lines.push(`Fila: ${filter.queue}`);
  if (filter.state) lines.push(`Estado: ${isJobState(filter.state) ? JOB_STATE_LABELS[filter.state] : filter.state}`);
  if (filter.from) lines.push(`De: ${formatDateTime(filter.from)}`);
  if (filter.to) lines.push(`Até: ${formatDateTime(filter.to)}`);
  if (filter.q) lines.push(`Texto: ${filter.q}`);
  if (filter.station_id !== undefined) lines.push(`Estação: ${stationName ?? filter.station_id}`);
  return lines;
}

interface BulkRerunDialogProps {
  filter: OpsJobFilter;
  onClose: () => void;
}

/**
 * Counts the re-runnable jobs of the filter, then confirms a re-run of exactly that many.
 * When the server finds another count (409), nothing ran: the dialog shows the new count
 * and asks again.
 */
export function BulkRerunDialog({ filter, onClose }: BulkRerunDialogProps) {
  const counted = useRerunnableCount(filter);
  const [changed, setChanged] = useState<{ count: number; message: string } | null>(null);
  const bulkRerun = useBulkRerun();
  const showSnackbar = useSnackbar();
  // The station's name, when the filter names one (the filter form has usually loaded them).
  const stations = useOpsStations({ enabled: filter.station_id !== undefined });
  const stationName = stations.data?.find((station) => station.id === filter.station_id)?.name;
  const lines = filterLines(filter, stationName);
  const expected = changed?.count ?? counted.data?.rerunnable;

  const confirm = () => {
    if (expected === undefined) return;
    bulkRerun.mutate(
      { filter, expected },
      {
        onSuccess: (outcome) => {
          if (outcome.kind === "changed") {
            setChanged({ count: outcome.count, message: outcome.message });
            return;
          }
          showSnackbar(`${countOf(outcome.rerun, "tarefa reexecutada", "tarefas reexecutadas")}.`);
          onClose();
        },
        onError: onClose,
      },
    );
  };

  const canConfirm = expected !== undefined && expected > 0 && expected <= BULK_RERUN_MAX;
  let title = "Reexecutar tarefas?";
  if (changed) title = "A seleção mudou";
  else if (canConfirm) title = `Reexecutar ${countOf(expected, "tarefa", "tarefas")}?`;

  let status: ReactNode;
  if (expected === undefined) {
    status = counted.isError ? (
      <p role="alert">Não foi possível contar as tarefas. Tente novamente.</p>
    ) : (
      <p role="status">Contando as tarefas reexecutáveis...</p>
    );
  } else if (expected > BULK_RERUN_MAX) {
    status = <p>Mais de 10 mil tarefas reexecutáveis: refine o filtro para reexecutá-las.</p>;
  } else if (expected === 0) {
    status = <p>{changed ? "Não há mais tarefas a reexecutar com este filtro." : "Não há tarefas a reexecutar com este filtro."}</p>;
  } else {
    status = (
      <p>
        As tarefas com falha, canceladas ou aguardando nova tentativa que atendem ao filtro voltam para a fila, com as
        tentativas zeradas.
      </p>
    );
  }

  return (
    <ConfirmDialog
      title={title}
      confirmLabel={canConfirm ? `Reexecutar ${countOf(expected, "tarefa", "tarefas")}` : undefined}
      onConfirm={confirm}
      onCancel={onClose}
      busy={bulkRerun.isPending}
    >
      {changed && (
        <p className="ops-dialog-alert" role="alert">
          {changed.message}
        </p>
      )}
      {status}
      {lines.length > 0 ? (
        <ul className="ops-dialog-list">
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : (
        <p>Sem filtro: todas as tarefas que podem ser reexecutadas.</p>
      )}
    </ConfirmDialog>
  );
}
