// /ops/tarefas: the job list by queue, state, time range and text, refreshed every 5 s,
// with one-job and bulk re-runs.
import { useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useSnackbar } from "@/components/snackbar/use-snackbar";
import { useJobAction, useJobList } from "@/features/staff/api/jobs";
import { BulkRerunDialog } from "@/features/staff/components/bulk-rerun-dialog";
import { JobFiltersForm } from "@/features/staff/components/job-filters-form";
import { JobStateBadge } from "@/features/staff/components/job-state-badge";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { Pager } from "@/features/staff/components/pager";
import { countOf } from "@/features/staff/format";
import { apiFilterOf, fieldsFromSearch, pageFromSearch, searchFromFields } from "@/features/staff/job-filter";
import { useOpsMe } from "@/features/staff/ops-context";
import { formatDateTime } from "@/lib/dates";
import type { OpsJobSummary } from "@/types/api";

function JobRow({ job, canAct }: { job: OpsJobSummary; canAct: boolean }) {
  const jobAction = useJobAction();
  const showSnackbar = useSnackbar();
  const rerun = () =>
    jobAction.mutate({ id: job.id, action: "rerun" }, { onSuccess: () => showSnackbar("Tarefa reexecutada.") });

  return (
    <tr>
      <td>
        <Link className="ops-id" to={`/ops/tarefas/${encodeURIComponent(job.id)}`}>
          {job.id}
        </Link>
      </td>
      <td>{job.queue}</td>
      <td>
        <JobStateBadge state={job.state} />
      </td>
      <td>
        {job.attempts} de {job.max_attempts}
      </td>
      <td>{formatDateTime(job.created_at)}</td>
      <td className="ops-table__error">{job.error ?? "—"}</td>
      {canAct && (
        <td>
          {job.can_rerun && (
            <button
              type="button"
              className="button button--secondary ops-button--small"
              disabled={jobAction.isPending}
              aria-busy={jobAction.isPending}
              onClick={rerun}
            >
              Reexecutar
            </button>
          )}
        </td>
      )}
    </tr>
  );
}

export function JobsPage() {
  const me = useOpsMe();
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.toString();
  const fields = useMemo(() => fieldsFromSearch(new URLSearchParams(search)), [search]);
  const page = pageFromSearch(searchParams);
  const filter = useMemo(() => apiFilterOf(fields), [fields]);
  const list = useJobList(filter, page);
  const [bulkCount, setBulkCount] = useState<number | null>(null);

  let body;
  if (list.data !== undefined) {
    body =
      list.data.jobs.length === 0 ? (
        <OpsEmpty text="Nenhuma tarefa encontrada com estes filtros." />
      ) : (
        <>
          <div className="ops-table-wrap">
            <table className="ops-table" aria-label="Tarefas">
              <thead>
                <tr>
                  <th scope="col">Tarefa</th>
                  <th scope="col">Fila</th>
                  <th scope="col">Estado</th>
                  <th scope="col">Tentativas</th>
                  <th scope="col">Criada em</th>
                  <th scope="col">Erro</th>
                  {me.can_act && <th scope="col">Ação</th>}
                </tr>
              </thead>
              <tbody>
                {list.data.jobs.map((job) => (
                  <JobRow key={job.id} job={job} canAct={me.can_act} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={page}
            perPage={list.data.per_page}
            total={list.data.total}
            onPage={(next) => setSearchParams(searchFromFields(fields, next))}
          />
        </>
      );
  } else if (list.isError) {
    body = <OpsError title="Não foi possível carregar as tarefas." query={list} />;
  } else {
    body = <OpsLoading label="Carregando tarefas" />;
  }

  const rerunnable = list.data?.rerunnable ?? 0;

  return (
    <>
      <h1 className="ops-title">Tarefas</h1>
      {/* Re-mounted when the address changes, so the form always shows the filter in force. */}
      <JobFiltersForm key={search} initial={fields} onApply={(next) => setSearchParams(searchFromFields(next))} />
      <div className="ops-toolbar">
        <p className="ops-muted" aria-live="polite">
          {list.data ? countOf(list.data.total, "tarefa", "tarefas") : ""}
        </p>
        {me.can_act && rerunnable > 0 && (
          <button type="button" className="button button--primary" onClick={() => setBulkCount(rerunnable)}>
            Reexecutar todas ({rerunnable})
          </button>
        )}
      </div>
      {body}
      {bulkCount !== null && <BulkRerunDialog filter={filter} count={bulkCount} onClose={() => setBulkCount(null)} />}
    </>
  );
}
