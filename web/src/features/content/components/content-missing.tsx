// A content page that could not be shown: the server's reason when it gave one ('Notícia não
// encontrada'), a way to try again when it did not answer, and the way back to the list.
import { Link } from "react-router";
import { TRY_AGAIN_TEXT } from "@/features/content/content-text";
import { ApiError } from "@/lib/api-client";

interface ContentMissingProps {
  error: unknown;
  /** What is said when the server gave no reason. */
  fallback: string;
  back: { to: string; label: string };
  /** Absent when there is nothing to try again (an id that is no id). */
  onRetry?: () => void;
}

export function ContentMissing({ error, fallback, back, onRetry }: ContentMissingProps) {
  const answered = error instanceof ApiError && error.status >= 400 && error.status < 500;
  return (
    <section className="content-detail">
      <h1 className="page-title">{answered ? error.message : fallback}</h1>
      <div className="content-detail__actions">
        {!answered && onRetry && (
          <button type="button" className="button button--secondary" onClick={onRetry}>
            {TRY_AGAIN_TEXT}
          </button>
        )}
        <Link className="button button--secondary" to={back.to}>
          {back.label}
        </Link>
      </div>
    </section>
  );
}
