import { auditActionLabel, auditDetailsText } from "@/features/staff/audit-format";
import { formatDateTime } from "@/lib/dates";
import type { OpsAuditEntry } from "@/types/api";

/** A job's audit entries, newest first: when, who, what. */
export function AuditList({ entries }: { entries: OpsAuditEntry[] }) {
  return (
    <ul className="ops-audit-list">
      {entries.map((entry) => {
        const details = auditDetailsText(entry);
        return (
          <li key={entry.id}>
            <span className="ops-muted">{formatDateTime(entry.created_at)}</span> · {entry.user.name} ·{" "}
            {auditActionLabel(entry.action)}
            {details && <span className="ops-muted"> · {details}</span>}
          </li>
        );
      })}
    </ul>
  );
}
