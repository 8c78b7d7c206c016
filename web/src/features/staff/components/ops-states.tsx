// Loading, error and empty states shared by the console's pages.
import { toastForError } from "@/lib/api-client";

export const RETRY_LABEL = "Tentar novamente";

export function OpsLoading({ label }: { label: string }) {
  return (
    <div className="ops-loading" role="status" aria-label={label} aria-busy="true">
      {Array.from({ length: 3 }, (_, index) => (
        <span key={index} className="ops-loading__bar" aria-hidden="true" />
      ))}
    </div>
  );
}

/** A query that failed: its error, and the way to ask again. */
interface FailedQuery {
  error: unknown;
  refetch: () => Promise<unknown>;
}

/** What failed, in the API's words, with a way to ask again. */
export function OpsError({ title, query }: { title: string; query: FailedQuery }) {
  return (
    <div className="ops-error" role="alert">
      <p className="ops-error__title">{title}</p>
      <p>{toastForError(query.error).text}</p>
      <button type="button" className="button button--secondary" onClick={() => void query.refetch()}>
        {RETRY_LABEL}
      </button>
    </div>
  );
}

export function OpsEmpty({ text }: { text: string }) {
  return <p className="ops-empty">{text}</p>;
}
