// A list page's activities, a page at a time: placeholders until the first page answers,
// 'Não há atividades' when there is none, then the cards, with placeholders while the next
// page loads and the way to ask for it (components/load-more.tsx).
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

export function PagedActivityGrid({ pages, label }: PagedActivityGridProps) {
  if (pages.isPending) return <CardSkeletons />;
  const activities = pagedItems(pages.data?.pages);
  if (activities.length === 0) return <p className="activities-empty">{NO_ACTIVITIES_TEXT}</p>;
  return (
    <>
      <ActivityGrid activities={activities} label={label} />
      {pages.isFetchingNextPage && <CardSkeletons label="Carregando mais atividades" />}
      <LoadMore
        hasMore={pages.hasNextPage}
        loading={pages.isFetchingNextPage}
        autoLoad={!pages.isFetchNextPageError}
        onLoadMore={() => void pages.fetchNextPage()}
        label="Carregar mais atividades"
      />
    </>
  );
}
