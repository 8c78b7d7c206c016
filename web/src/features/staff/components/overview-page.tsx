// /ops: counts per queue and state with pause/resume, and each station's cashback release.
import { useState } from "react";
import { Link } from "react-router";
import { useSnackbar } from "@/components/toasts/use-toast";
import { useChangeQueue, useQueues, type QueueAction } from "@/features/staff/api/queues";
import { useOpsStations, useReleaseStation } from "@/features/staff/api/stations";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { countOf } from "@/features/staff/format";
import { JOB_STATE_LABELS, JOB_STATES } from "@/features/staff/job-states";
import { canPauseQueues, useOpsMe } from "@/features/staff/ops-context";
import { formatCents } from "@/lib/currency";
import { formatDateTime } from "@/lib/dates";
import type { OpsQueue, OpsStation } from "@/types/api";

const QUEUE_ACTION_TEXT: Record<QueueAction, { title: string; body: string; confirm: string; done: string }> = {
  pause: {
    title: "Pausar a fila",
    body:
      "Os workers deixam de pegar tarefas desta fila até ela ser retomada. " +
      "As tarefas já em execução terminam normalmente.",
    confirm: "Pausar fila",
    done: "Fila pausada.",
  },
  resume: {
    title: "Retomar a fila",
    body: "Os workers voltam a pegar as tarefas desta fila.",
    confirm: "Retomar fila",
    done: "Fila retomada.",
  },
};

function jobsLink(queue: string, state: string): string {
  return `/ops/tarefas?${new URLSearchParams({ queue, state }).toString()}`;
}

function QueueCard({ queue, onAction }: { queue: OpsQueue; onAction?: (action: QueueAction) => void }) {
  const titleId = `queue-${queue.name}`;
  return (
    <article className="ops-card" aria-labelledby={titleId}>
      <header className="ops-card__header">
        <h3 id={titleId} className="ops-card__title">
          {queue.name}
        </h3>
        {queue.paused && <span className="ops-badge ops-badge--paused">Pausada</span>}
      </header>
      {queue.paused && (
        <p className="ops-card__note">
          Pausada {queue.paused_by ? `por ${queue.paused_by.name} ` : ""}em {formatDateTime(queue.paused_at)}
        </p>
      )}
      <dl className="ops-counts">
        {JOB_STATES.map((state) => {
          const count = queue.counts[state] ?? 0;
          return (
            <div key={state} className="ops-counts__item">
              <dt>{JOB_STATE_LABELS[state]}</dt>
              <dd>{count > 0 ? <Link to={jobsLink(queue.name, state)}>{count}</Link> : count}</dd>
            </div>
          );
        })}
      </dl>
      {onAction && (
        <button
          type="button"
          className="button button--secondary"
          onClick={() => onAction(queue.paused ? "resume" : "pause")}
        >
          {queue.paused ? "Retomar" : "Pausar"}
        </button>
      )}
    </article>
  );
}

function QueuesPanel() {
  const me = useOpsMe();
  const queues = useQueues();
  const changeQueue = useChangeQueue();
  const showSnackbar = useSnackbar();
  const [pending, setPending] = useState<{ name: string; action: QueueAction } | null>(null);

  const confirm = () => {
    if (!pending) return;
    changeQueue.mutate(pending, {
      onSuccess: () => showSnackbar(QUEUE_ACTION_TEXT[pending.action].done),
      onSettled: () => setPending(null),
    });
  };

  let body;
  if (queues.data !== undefined && queues.data.length > 0) {
    body = (
      <div className="ops-cards">
        {queues.data.map((queue) => (
          <QueueCard
            key={queue.name}
            queue={queue}
            onAction={canPauseQueues(me) ? (action) => setPending({ name: queue.name, action }) : undefined}
          />
        ))}
      </div>
    );
  } else if (queues.data !== undefined) {
    body = <OpsEmpty text="Nenhuma fila registrada ainda." />;
  } else if (queues.isError) {
    body = <OpsError title="Não foi possível carregar as filas." query={queues} />;
  } else {
    body = <OpsLoading label="Carregando filas" />;
  }

  return (
    <section className="ops-section" aria-labelledby="ops-queues-title">
      <h2 id="ops-queues-title">Filas</h2>
      {body}
      {pending && (
        <ConfirmDialog
          title={`${QUEUE_ACTION_TEXT[pending.action].title} ${pending.name}?`}
          confirmLabel={QUEUE_ACTION_TEXT[pending.action].confirm}
          onConfirm={confirm}
          onCancel={() => setPending(null)}
          busy={changeQueue.isPending}
        >
          <p>{QUEUE_ACTION_TEXT[pending.action].body}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function StationRow({ station, canAct }: { station: OpsStation; canAct: boolean }) {
  const release = useReleaseStation();
  const [confirming, setConfirming] = useState(false);
  const { pending } = station;
  const jobId = release.data?.job_id;

  const confirm = () => release.mutate(station.id, { onSettled: () => setConfirming(false) });

  return (
    <tr>
      <th scope="row">
        {station.name}
        <span className="ops-muted"> ({station.subdomain})</span>
      </th>
      <td>
        <code>{station.release.expression}</code>
        <span className="ops-muted"> · {station.release.enabled ? "ativa" : "desativada"}</span>
      </td>
      <td>{formatDateTime(station.release.last_tick, "Nunca")}</td>
      <td>
        {countOf(pending.lots, "lote", "lotes")} · {formatCents(pending.amount_cents)}
      </td>
      <td>
        {countOf(pending.due_lots, "lote", "lotes")} · {formatCents(pending.due_amount_cents)}
      </td>
      {canAct && (
        <td>
          <button
            type="button"
            className="button button--secondary"
            disabled={release.isPending}
            aria-busy={release.isPending}
            aria-label={`Liberar agora: ${station.name}`}
            onClick={() => setConfirming(true)}
          >
            Liberar agora
          </button>
          {confirming && (
            <ConfirmDialog
              title={`Liberar o cashback de ${station.name} agora?`}
              confirmLabel="Liberar cashback"
              onConfirm={confirm}
              onCancel={() => setConfirming(false)}
              busy={release.isPending}
            >
              <p>
                Os créditos já vencidos ({countOf(pending.due_lots, "lote", "lotes")} ·{" "}
                {formatCents(pending.due_amount_cents)} pontos) passam para o saldo dos membros, sem esperar a
                agenda. A liberação roda em segundo plano.
              </p>
            </ConfirmDialog>
          )}
          {jobId && (
            <p className="ops-card__note" role="status">
              Liberação enfileirada.{" "}
              <Link to={`/ops/tarefas/${encodeURIComponent(jobId)}`}>Acompanhar a liberação</Link>
            </p>
          )}
        </td>
      )}
    </tr>
  );
}

function StationsPanel() {
  const me = useOpsMe();
  const stations = useOpsStations();

  let body;
  if (stations.data !== undefined && stations.data.length > 0) {
    body = (
      <div className="ops-table-wrap">
        <table className="ops-table" aria-label="Estações">
          <thead>
            <tr>
              <th scope="col">Estação</th>
              <th scope="col">Agenda (horário de Brasília)</th>
              <th scope="col">Última liberação agendada</th>
              <th scope="col">A liberar (pontos)</th>
              <th scope="col">Já vencidos (pontos)</th>
              {me.can_act && <th scope="col">Ação</th>}
            </tr>
          </thead>
          <tbody>
            {stations.data.map((station) => (
              <StationRow key={station.id} station={station} canAct={me.can_act} />
            ))}
          </tbody>
        </table>
      </div>
    );
  } else if (stations.data !== undefined) {
    body = <OpsEmpty text="Nenhuma estação no seu escopo." />;
  } else if (stations.isError) {
    body = <OpsError title="Não foi possível carregar as estações." query={stations} />;
  } else {
    body = <OpsLoading label="Carregando estações" />;
  }

  return (
    <section className="ops-section" aria-labelledby="ops-stations-title">
      <h2 id="ops-stations-title">Liberação de cashback</h2>
      {body}
    </section>
  );
}

export function OverviewPage() {
  return (
    <>
      <h1 className="ops-title">Visão geral</h1>
      <QueuesPanel />
      <StationsPanel />
    </>
  );
}
