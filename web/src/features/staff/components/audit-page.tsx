// /ops/auditoria: every staff action, newest first, paged (?page=N).
import { Link, useSearchParams } from "react-router";
import { useAudit } from "@/features/staff/api/audit";
import { auditActionLabel, auditDetailsText } from "@/features/staff/audit-format";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { Pager } from "@/features/staff/components/pager";
import { pageFromSearch } from "@/features/staff/job-filter";
import { formatDateTime } from "@/lib/dates";
import type { OpsAuditEntry } from "@/types/api";

/** Bulk re-runs can touch many jobs: the row names a few and counts the rest. */
const JOBS_SHOWN_PER_ENTRY = 3;

function EntryJobs({ jobIds }: { jobIds: string[] }) {
  if (jobIds.length === 0) return <>—</>;
  const shown = jobIds.slice(0, JOBS_SHOWN_PER_ENTRY);
  return (
    <ul className="ops-inline-list">
      {shown.map((id) => (
        <li key={id}>
          <Link className="ops-id" to={`/ops/tarefas/${encodeURIComponent(id)}`}>
            {id}
          </Link>
        </li>
      ))}
      {jobIds.length > shown.length && <li>e mais {jobIds.length - shown.length}</li>}
    </ul>
  );
}

function EntryRow({ entry }: { entry: OpsAuditEntry }) {
  return (
    <tr>
      <td>{formatDateTime(entry.created_at)}</td>
      <td>
        {entry.user.name}
        {entry.user.email && <span className="ops-muted"> ({entry.user.email})</span>}
      </td>
      <td>{auditActionLabel(entry.action)}</td>
      <td>
        <EntryJobs jobIds={entry.job_ids} />
      </td>
      <td>{auditDetailsText(entry) || "—"}</td>
    </tr>
  );
}

export function AuditPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const page = pageFromSearch(searchParams);
  const audit = useAudit(page);

  let body;
  if (audit.data !== undefined) {
    body =
      audit.data.entries.length === 0 ? (
        <OpsEmpty text="Nenhuma ação da equipe registrada ainda." />
      ) : (
        <>
          <div className="ops-table-wrap">
            <table className="ops-table" aria-label="Auditoria">
              <thead>
                <tr>
                  <th scope="col">Quando</th>
                  <th scope="col">Quem</th>
                  <th scope="col">Ação</th>
                  <th scope="col">Tarefas</th>
                  <th scope="col">Detalhes</th>
                </tr>
              </thead>
              <tbody>
                {audit.data.entries.map((entry) => (
                  <EntryRow key={entry.id} entry={entry} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={page}
            perPage={audit.data.per_page}
            total={audit.data.total}
            onPage={(next) => setSearchParams(next > 1 ? { page: String(next) } : {})}
          />
        </>
      );
  } else if (audit.isError) {
    body = <OpsError title="Não foi possível carregar a auditoria." query={audit} />;
  } else {
    body = <OpsLoading label="Carregando auditoria" />;
  }

  return (
    <>
      <h1 className="ops-title">Auditoria</h1>
      {body}
    </>
  );
}
