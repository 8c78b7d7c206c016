import { useId, useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { useReport, type ReportTarget } from "@/features/feed/api/reports";

/** The server keeps at most 500 characters of a reason. */
const REASON_MAX_LENGTH = 500;

const TITLES: Record<ReportTarget["kind"], string> = {
  post: "Denunciar este post",
  comment: "Denunciar este comentário",
};

/** Asks for an optional reason, then reports the post or comment; closes once sent. */
export function ReportDialog({ target, onClose }: { target: ReportTarget; onClose: () => void }) {
  const reasonId = useId();
  const [reason, setReason] = useState("");
  const report = useReport();
  const busy = report.isPending;

  return (
    <ConfirmDialog
      title={TITLES[target.kind]}
      cancelLabel="Cancelar"
      confirmLabel="Denunciar"
      cancelFirst
      busy={busy}
      onCancel={onClose}
      onConfirm={() => report.mutate({ target, reason }, { onSuccess: onClose })}
    >
      <p>A equipe do clube vai analisar. Se quiser, conte o que há de errado.</p>
      <label className="feed-field" htmlFor={reasonId}>
        Motivo (opcional)
      </label>
      <textarea
        id={reasonId}
        className="feed-textarea"
        rows={3}
        maxLength={REASON_MAX_LENGTH}
        value={reason}
        disabled={busy}
        onChange={(event) => setReason(event.target.value)}
      />
    </ConfirmDialog>
  );
}
