import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";

const SKELETON_ROWS = 4;

export const LOAD_ERROR_TEXT = "Não foi possível carregar as transações.";
export const LOAD_MORE_ERROR_TEXT = "Não foi possível carregar mais transações.";
export const RETRY_LABEL = "Tentar novamente";
export const LOAD_MORE_LABEL = "Carregar mais";

/** One line of the statement: what, when, how much, and a state note when there is one. */
export interface StatementLine {
  key: number;
  name: string;
  date: string;
  amount: string;
  status: string | null;
  /** A modifier for the line's look (a reversed credit is struck through). */
  tone: "default" | "pending" | "void";
}

interface TransactionListProps<T> {
  query: UseInfiniteQueryResult<InfiniteData<T[]>>;
  toLine: (item: T) => StatementLine;
  emptyText: string;
  label: string;
}

function Skeleton({ label }: { label: string }) {
  return (
    <div className="statement-skeleton" role="status" aria-label={`Carregando ${label}`} aria-busy="true">
      {Array.from({ length: SKELETON_ROWS }, (_, index) => (
        <div key={index} className="statement-skeleton__row" aria-hidden="true">
          <span className="statement-skeleton__bar statement-skeleton__bar--wide" />
          <span className="statement-skeleton__bar" />
        </div>
      ))}
    </div>
  );
}

function Line({ line }: { line: StatementLine }) {
  return (
    <li className={`statement-line statement-line--${line.tone}`}>
      <div className="statement-line__main">
        <span className="statement-line__name">{line.name}</span>
        <span className="statement-line__date">{line.date}</span>
      </div>
      <div className="statement-line__side">
        <span className="statement-line__amount">{line.amount}</span>
        {line.status !== null && <span className="statement-line__status">{line.status}</span>}
      </div>
    </li>
  );
}

function Retry({ text, onRetry }: { text: string; onRetry: () => void }) {
  return (
    <div className="statement-error" role="alert">
      <p>{text}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        {RETRY_LABEL}
      </button>
    </div>
  );
}

/** A paged statement list with its loading skeleton, error with retry, empty text and "Carregar mais". */
export function TransactionList<T>({ query, toLine, emptyText, label }: TransactionListProps<T>) {
  const { data, isPending, hasNextPage, isFetchingNextPage, isFetchNextPageError } = query;

  if (isPending) return <Skeleton label={label} />;
  // Without data once loading ended, the first page failed; a failed background refresh keeps the lines.
  if (data === undefined) return <Retry text={LOAD_ERROR_TEXT} onRetry={() => void query.refetch()} />;

  const items = data.pages.flat();
  if (items.length === 0) return <p className="statement-empty">{emptyText}</p>;

  return (
    <>
      <ul className="statement-lines" aria-label={label}>
        {items.map((item) => {
          const line = toLine(item);
          return <Line key={line.key} line={line} />;
        })}
      </ul>
      {isFetchNextPageError && <p className="statement-error" role="alert">{LOAD_MORE_ERROR_TEXT}</p>}
      {hasNextPage && (
        <button
          type="button"
          className="button button--secondary statement-more"
          disabled={isFetchingNextPage}
          aria-busy={isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {LOAD_MORE_LABEL}
        </button>
      )}
    </>
  );
}
