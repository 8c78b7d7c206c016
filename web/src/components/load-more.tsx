// The end of a list that loads in pages: the next page is asked for as the end nears the
// screen (an IntersectionObserver on a sentinel), and a button asks for it too, for keyboard
// and assistive technology users and browsers without the observer. The list is told which
// asked, so a page asked for with the button can take the focus to its first item (the button
// itself goes away after the last page).
import { useEffect, useRef } from "react";
import "./load-more.css";

/** How far below the screen the end of the list starts the next page. */
const AHEAD_MARGIN = "0px 0px 400px 0px";

export type LoadAsker = "button" | "scroll";

interface LoadMoreProps {
  /** Whether the list has pages not loaded yet. */
  hasMore: boolean;
  /** A page is being loaded: nothing is asked for meanwhile. */
  loading: boolean;
  /** `button` when the member pressed it, `scroll` when the end came near. */
  onLoadMore: (asker: LoadAsker) => void;
  /** Whether nearing the end loads the next page; off after a page failed, so the button retries. */
  autoLoad?: boolean;
  label?: string;
  /** When the end counts as near; by default 400 px before it reaches the screen. */
  observer?: IntersectionObserverInit;
}

const AHEAD: IntersectionObserverInit = { rootMargin: AHEAD_MARGIN };

export function LoadMore({
  hasMore,
  loading,
  onLoadMore,
  autoLoad = true,
  label = "Carregar mais",
  observer: observerInit = AHEAD,
}: LoadMoreProps) {
  const sentinelRef = useRef<HTMLDivElement>(null);
  const onLoadMoreRef = useRef(onLoadMore);
  useEffect(() => {
    onLoadMoreRef.current = onLoadMore;
  }, [onLoadMore]);

  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || !hasMore || loading || !autoLoad || typeof IntersectionObserver === "undefined") return;
    // A new observer per page reports at once whether the end is still in sight (a tall
    // screen that a page did not fill), so the list keeps loading until it is not.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onLoadMoreRef.current("scroll");
      },
      observerInit,
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasMore, loading, autoLoad, observerInit]);

  if (!hasMore) return null;
  return (
    <div className="load-more">
      <div ref={sentinelRef} className="load-more__sentinel" aria-hidden="true" />
      {/* Stays while a page loads, so the focus stays on it for the next. */}
      <button
        type="button"
        className="button button--secondary"
        aria-disabled={loading}
        onClick={() => {
          if (!loading) onLoadMore("button");
        }}
      >
        {label}
      </button>
    </div>
  );
}
