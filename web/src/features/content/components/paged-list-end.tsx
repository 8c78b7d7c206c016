// The end of a content list loaded a page at a time: placeholders while the next page
// loads and the way to ask for it (components/load-more.tsx). The spec's news list loads
// the next page when half of its end is in sight (spec 002 section 9: threshold 0.5).
import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import { LoadMore } from "@/components/load-more";
import type { Page } from "@/lib/paging";

const HALF_IN_SIGHT: IntersectionObserverInit = { threshold: 0.5 };

export function PagedListEnd<T>({ pages, label }: { pages: UseInfiniteQueryResult<InfiniteData<Page<T>>>; label: string }) {
  return (
    <>
      {pages.isFetchingNextPage && (
        <p className="content-list__more" role="status">
          Carregando…
        </p>
      )}
      <LoadMore
        hasMore={pages.hasNextPage}
        loading={pages.isFetchingNextPage}
        autoLoad={!pages.isFetchNextPageError}
        onLoadMore={() => void pages.fetchNextPage()}
        label={label}
        observer={HALF_IN_SIGHT}
      />
    </>
  );
}
