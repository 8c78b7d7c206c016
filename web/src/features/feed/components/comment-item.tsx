import { useState, type ReactNode } from "react";
import type { FeedComment } from "@/features/feed/api/types";
import { AuthorLine } from "@/features/feed/components/author-line";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { ReportDialog } from "@/features/feed/components/report-dialog";
import { DELETE_COMMENT_TITLE, DELETE_QUESTION } from "@/features/feed/feed-text";

interface CommentItemProps {
  comment: FeedComment;
  /** Deletes it; offered only on one's own comments (`userAuthor`). */
  onDelete: () => Promise<unknown>;
  /** What follows the text: an activity comment's replies. */
  children?: ReactNode;
}

/** One comment: who, when, the text; delete (with confirmation) on one's own, report on others'. */
export function CommentItem({ comment, onDelete, children }: CommentItemProps) {
  const [dialog, setDialog] = useState<"delete" | "report" | null>(null);
  const [deleting, setDeleting] = useState(false);
  const close = () => setDialog(null);

  const confirmDelete = () => {
    setDeleting(true);
    onDelete().then(
      () => {
        setDeleting(false);
        close();
      },
      () => setDeleting(false),
    );
  };

  return (
    <article className="feed-comment" aria-label={`Comentário de ${comment.user.name}`}>
      <div className="feed-comment__head">
        <AuthorLine author={comment.user} createdAt={comment.createdAt} />
        {comment.userAuthor ? (
          <button type="button" className="feed-icon-button" aria-label="Deletar comentário" onClick={() => setDialog("delete")}>
            <TrashIcon />
          </button>
        ) : (
          <button type="button" className="feed-link-button" onClick={() => setDialog("report")}>
            Denunciar
          </button>
        )}
      </div>
      <p className="feed-comment__text">{comment.description}</p>
      {children}
      {dialog === "delete" && (
        <ConfirmDialog
          title={DELETE_COMMENT_TITLE}
          cancelLabel="Cancelar"
          confirmLabel="Sim"
          cancelFirst
          busy={deleting}
          onConfirm={confirmDelete}
          onCancel={close}
        >
          <p>{DELETE_QUESTION}</p>
        </ConfirmDialog>
      )}
      {dialog === "report" && <ReportDialog target={{ kind: "comment", id: comment.id }} onClose={close} />}
    </article>
  );
}

export function TrashIcon() {
  return (
    <svg className="feed-icon" viewBox="0 0 24 24" aria-hidden="true">
      <path d="M9 3h6l1 2h4v2H4V5h4l1-2zm-3 6h12l-1 12H7L6 9zm4 2v8h2v-8h-2zm4 0v8h2v-8h-2z" />
    </svg>
  );
}
