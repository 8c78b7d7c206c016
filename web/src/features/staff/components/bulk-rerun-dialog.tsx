import { useState } from "react";
import { useSnackbar } from "@/components/snackbar/use-snackbar";
import { useBulkRerun } from "@/features/staff/api/jobs";
import { useOpsStations } from "@/features/staff/api/stations";
import { ConfirmDialog } from "@/features/staff/components/confirm-dialog";
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
  /** The count the list showed when the staff member asked. */
  count: number;
  onClose: () => void;
}

/**
 * Confirms a re-run of every re-runnable job of the filter. When the server finds another
 * count (409), nothing ran: the dialog shows the new count and asks again.
 */
export function BulkRerunDialog({ filter, count, onClose }: BulkRerunDialogProps) {
  const [expected, setExpected] = useState(count);
  const [changedMessage, setChangedMessage] = useState<string | null>(null);
  const bulkRerun = useBulkRerun();
  const showSnackbar = useSnackbar();
  // The station's name, when the filter names one (the filter form has usually loaded them).
  const stations = useOpsStations({ enabled: filter.station_id !== undefined });
  const stationName = stations.data?.find((station) => station.id === filter.station_id)?.name;
  const lines = filterLines(filter, stationName);

  const confirm = () => {
    bulkRerun.mutate(
      { filter, expected },
      {
        onSuccess: (outcome) => {
          if (outcome.kind === "changed") {
            setExpected(outcome.count);
            setChangedMessage(outcome.message);
            return;
          }
          showSnackbar(`${countOf(outcome.rerun, "tarefa reexecutada", "tarefas reexecutadas")}.`);
          onClose();
        },
        onError: onClose,
      },
    );
  };

  return (
    <ConfirmDialog
      title={changedMessage ? "A seleção mudou" : `Reexecutar ${countOf(expected, "tarefa", "tarefas")}?`}
      confirmLabel={expected > 0 ? `Reexecutar ${countOf(expected, "tarefa", "tarefas")}` : undefined}
      onConfirm={confirm}
      onClose={onClose}
      busy={bulkRerun.isPending}
    >
      {changedMessage && (
        <p className="ops-dialog-alert" role="alert">
          {changedMessage}
        </p>
      )}
      {expected > 0 ? (
        <p>
          As tarefas com falha, canceladas ou aguardando nova tentativa que atendem ao filtro voltam para a fila, com as
          tentativas zeradas.
        </p>
      ) : (
        <p>Não há mais tarefas a reexecutar com este filtro.</p>
      )}
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
