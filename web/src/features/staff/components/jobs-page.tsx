// /ops/tarefas: the job list by queue, state, time range and text, refreshed every 5 s,
// paged by cursor (each page looks at a bounded window of jobs), with one-job and bulk re-runs.
import { useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useSnackbar } from "@/components/toasts/use-toast";
import { useJobAction, useJobList } from "@/features/staff/api/jobs";
import { BulkRerunDialog } from "@/features/staff/components/bulk-rerun-dialog";
import { JobFiltersForm } from "@/features/staff/components/job-filters-form";
import { JobStateBadge } from "@/features/staff/components/job-state-badge";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { apiFilterOf, cursorFromSearch, fieldsFromSearch, searchFromFields } from "@/features/staff/job-filter";
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
  const before = cursorFromSearch(searchParams);
  const filter = useMemo(() => apiFilterOf(fields), [fields]);
  const list = useJobList(filter, before);
  const [bulkOpen, setBulkOpen] = useState(false);

  let body;
  if (list.data !== undefined) {
    const nextCursor = list.data.next_cursor;
    // Newer pages are a step back in the browser; "Mais recentes" returns to the first.
    const pager = (before !== null || nextCursor !== null) && (
      <nav className="ops-pager" aria-label="Paginação">
        <button
          type="button"
          className="button button--secondary"
          disabled={before === null}
          onClick={() => setSearchParams(searchFromFields(fields))}
        >
          Mais recentes
        </button>
        <button
          type="button"
          className="button button--secondary"
          disabled={nextCursor === null}
          onClick={() => nextCursor !== null && setSearchParams(searchFromFields(fields, nextCursor))}
        >
          Mais antigas
        </button>
      </nav>
    );
    body =
      list.data.jobs.length === 0 ? (
        <>
          <OpsEmpty
            text={
              nextCursor === null
                ? "Nenhuma tarefa encontrada com estes filtros."
                : "Nenhuma tarefa encontrada neste trecho; busque nas mais antigas."
            }
          />
          {pager}
        </>
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
          {pager}
        </>
      );
  } else if (list.isError) {
    body = <OpsError title="Não foi possível carregar as tarefas." query={list} />;
  } else {
    body = <OpsLoading label="Carregando tarefas" />;
  }

  return (
    <>
      <h1 className="ops-title">Tarefas</h1>
      {/* Re-mounted when the address changes, so the form always shows the filter in force. */}
      <JobFiltersForm key={search} initial={fields} onApply={(next) => setSearchParams(searchFromFields(next))} />
      {me.can_act && (
        <div className="ops-toolbar">
          <button type="button" className="button button--primary" onClick={() => setBulkOpen(true)}>
            Reexecutar as filtradas
          </button>
        </div>
      )}
      {body}
      {bulkOpen && <BulkRerunDialog filter={filter} onClose={() => setBulkOpen(false)} />}
    </>
  );
}
