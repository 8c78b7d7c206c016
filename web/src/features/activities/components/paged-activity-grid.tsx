// A list page's activities, a page at a time: placeholders until the first page answers,
// 'Não há atividades' when there is none, a way to try again when the first page failed, then
// the cards, with placeholders while the next page loads and the way to ask for it
// (components/load-more.tsx). A page asked for with the button takes the focus to its first
// card, so a keyboard user goes on reading where the new cards begin.
import { useCallback, useState } from "react";
import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import { LoadMore } from "@/components/load-more";
import { NO_ACTIVITIES_TEXT } from "@/features/activities/activity-text";
import { ActivityGrid } from "@/features/activities/components/activity-grid";
import { CardSkeletons } from "@/features/activities/components/card-skeletons";
import { pagedItems, type Page } from "@/lib/paging";
import type { ActivityCard } from "@/types/api";

interface PagedActivityGridProps {
  pages: UseInfiniteQueryResult<InfiniteData<Page<ActivityCard>>>;
  /** The grid's accessible name. */
  label: string;
}

/** What a list whose first page failed says, with 'Tentar novamente' beside it. */
export const ACTIVITIES_FAILED_TEXT = "Não foi possível carregar as atividades.";

export function PagedActivityGrid({ pages, label }: PagedActivityGridProps) {
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const focused = useCallback(() => setFocusIndex(null), []);
  if (pages.isPending) return <CardSkeletons />;
  if (pages.isError && !pages.data) {
    return (
      <div className="list-page__empty" role="alert">
        <p>{ACTIVITIES_FAILED_TEXT}</p>
        <button type="button" className="button button--secondary" onClick={() => void pages.refetch()}>
          Tentar novamente
        </button>
      </div>
    );
  }
  const activities = pagedItems(pages.data?.pages);
  if (activities.length === 0) return <p className="list-page__empty">{NO_ACTIVITIES_TEXT}</p>;
  return (
    <>
      <ActivityGrid activities={activities} label={label} focusIndex={focusIndex} onFocused={focused} />
      {pages.isFetchingNextPage && <CardSkeletons label="Carregando mais atividades" />}
      <LoadMore
        hasMore={pages.hasNextPage}
        loading={pages.isFetchingNextPage}
        autoLoad={!pages.isFetchNextPageError}
        onLoadMore={(asker) => {
          if (asker === "button") setFocusIndex(activities.length);
          void pages.fetchNextPage();
        }}
        label="Carregar mais atividades"
      />
    </>
  );
}
