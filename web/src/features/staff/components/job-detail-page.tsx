// /ops/tarefas/:jobId: everything the console knows about one job, with its actions.
import { useState } from "react";
import { Link, useParams } from "react-router";
import { useSnackbar } from "@/components/toasts/use-toast";
import { useJobAction, useOpsJob } from "@/features/staff/api/jobs";
import { participationOf } from "@/features/staff/api/participations";
import { AnnulParticipation } from "@/features/staff/components/annul-participation";
import { AuditList } from "@/features/staff/components/audit-list";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { JobStateBadge } from "@/features/staff/components/job-state-badge";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { useOpsMe } from "@/features/staff/ops-context";
import { ApiError } from "@/lib/api-client";
import { formatDateTime } from "@/lib/dates";
import type { OpsJobDetail } from "@/types/api";

function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "null";
}

function ProgressBar({ progress }: { progress: number | null }) {
  const known = progress !== null;
  return (
    <div className="ops-progress">
      <span id="ops-job-progress">Progresso{known ? `: ${progress}%` : ""}</span>
      <div
        className={known ? "ops-progress__bar" : "ops-progress__bar ops-progress__bar--indeterminate"}
        role="progressbar"
        aria-labelledby="ops-job-progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={known ? progress : undefined}
      >
        <span className="ops-progress__fill" style={known ? { width: `${progress}%` } : undefined} />
      </div>
    </div>
  );
}

function JobActions({ job }: { job: OpsJobDetail }) {
  const jobAction = useJobAction();
  const showSnackbar = useSnackbar();
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const busy = jobAction.isPending;

  const rerun = () =>
    jobAction.mutate({ id: job.id, action: "rerun" }, { onSuccess: () => showSnackbar("Tarefa reexecutada.") });
  const cancel = () =>
    jobAction.mutate(
      { id: job.id, action: "cancel" },
      { onSuccess: () => showSnackbar("Tarefa cancelada."), onSettled: () => setConfirmingCancel(false) },
    );

  if (!job.can_rerun && !job.can_cancel) return null;
  return (
    <div className="ops-actions">
      {job.can_rerun && (
        <button type="button" className="button button--primary" disabled={busy} aria-busy={busy} onClick={rerun}>
          Reexecutar
        </button>
      )}
      {job.can_cancel && (
        <button
          type="button"
          className="button button--secondary"
          disabled={busy}
          onClick={() => setConfirmingCancel(true)}
        >
          Cancelar
        </button>
      )}
      {confirmingCancel && (
        <ConfirmDialog
          title="Cancelar esta tarefa?"
          confirmLabel="Cancelar tarefa"
          onConfirm={cancel}
          onCancel={() => setConfirmingCancel(false)}
          busy={busy}
        >
          <p>A tarefa não será executada. Ela pode ser reexecutada depois, se preciso.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function JobDetail({ job }: { job: OpsJobDetail }) {
  const me = useOpsMe();
  const { owner } = job;
  const participation = participationOf(job);
  return (
    <>
      <div className="ops-detail-head">
        <JobStateBadge state={job.state} />
        {me.can_act && <JobActions job={job} />}
        {me.can_act && participation !== null && <AnnulParticipation participationId={participation} />}
      </div>
      {job.state === "running" && <ProgressBar progress={job.progress} />}
      {job.error && (
        <p className="ops-error-summary" role="note">
          {job.error}
        </p>
      )}
      <dl className="ops-facts">
        <div>
          <dt>Fila</dt>
          <dd>{job.queue}</dd>
        </div>
        <div>
          <dt>Tentativas</dt>
          <dd>
            {job.attempts} de {job.max_attempts}
          </dd>
        </div>
        <div>
          <dt>Criada em</dt>
          <dd>{formatDateTime(job.created_at)}</dd>
        </div>
        <div>
          <dt>Executar a partir de</dt>
          <dd>{formatDateTime(job.run_at)}</dd>
        </div>
        <div>
          <dt>Iniciada em</dt>
          <dd>{formatDateTime(job.started_at)}</dd>
        </div>
        <div>
          <dt>Terminada em</dt>
          <dd>{formatDateTime(job.finished_at)}</dd>
        </div>
        <div>
          <dt>Registro</dt>
          <dd>{job.subject ? `${job.subject.kind} ${job.subject.id}` : "—"}</dd>
        </div>
        <div>
          <dt>Estação</dt>
          <dd>{owner.station?.name ?? "—"}</dd>
        </div>
        <div>
          <dt>Membro</dt>
          <dd>{owner.user ? `${owner.user.name}${owner.user.email ? ` (${owner.user.email})` : ""}` : "—"}</dd>
        </div>
      </dl>

      <section className="ops-section" aria-labelledby="ops-job-payload">
        <h2 id="ops-job-payload">Dados da tarefa</h2>
        <pre className="ops-code">{prettyJson(job.payload)}</pre>
      </section>

      <section className="ops-section" aria-labelledby="ops-job-result">
        <h2 id="ops-job-result">Resultado</h2>
        {job.result == null ? (
          <OpsEmpty text="Sem resultado ainda." />
        ) : (
          <pre className="ops-code">{prettyJson(job.result)}</pre>
        )}
      </section>

      <section className="ops-section" aria-labelledby="ops-job-attempts">
        <h2 id="ops-job-attempts">Falhas</h2>
        {job.failures.length === 0 ? (
          <OpsEmpty text="Nenhuma falha registrada." />
        ) : (
          <ol className="ops-attempts">
            {job.failures.map((failure) => (
              <li key={`${failure.failed_at}-${failure.attempt}`} className="ops-attempt">
                <p className="ops-attempt__head">
                  Tentativa {failure.attempt} · {formatDateTime(failure.failed_at)}
                  {failure.worker && <span className="ops-muted"> · {failure.worker}</span>}
                </p>
                <p className="ops-attempt__summary">{failure.summary}</p>
                {failure.detail && (
                  <details>
                    <summary>Detalhe técnico</summary>
                    <pre className="ops-code">{failure.detail}</pre>
                  </details>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>

      <section className="ops-section" aria-labelledby="ops-job-audit">
        <h2 id="ops-job-audit">Ações da equipe</h2>
        {job.audit.length === 0 ? (
          <OpsEmpty text="Nenhuma ação da equipe nesta tarefa." />
        ) : (
          <AuditList entries={job.audit} />
        )}
      </section>
    </>
  );
}

export function JobDetailPage() {
  const jobId = useParams().jobId ?? "";
  const job = useOpsJob(jobId);

  // A refresh that failed keeps what was shown; only a job never loaded shows the failure.
  let body;
  if (job.data !== undefined) {
    body = <JobDetail job={job.data} />;
  } else if (job.error instanceof ApiError && job.error.status === 404) {
    body = <OpsEmpty text="Tarefa não encontrada." />;
  } else if (job.isError) {
    body = <OpsError title="Não foi possível carregar a tarefa." query={job} />;
  } else {
    body = <OpsLoading label="Carregando tarefa" />;
  }

  return (
    <>
      <Link to="/ops/tarefas" className="ops-back">
        Voltar para as tarefas
      </Link>
      <h1 className="ops-title">
        Tarefa <span className="ops-id">{jobId}</span>
      </h1>
      {body}
    </>
  );
}
