// /homepage (spec 001 section 2, "Home"): the featured carousel, now-playing rows, one row
// per journey, the category rows and the station's logo. Rows left empty are hidden. The
// data loads at once: no 3-second delay (docs/decisions.md, "Activities home"). Above the
// rows, the station's extras: the lucky-number card and the shortcut tiles (home-extras).
import { useFeaturedActivities, useCategories, useJourneys, useNowPlaying } from "@/features/activities/api/get-home";
import { ActivityRow, journeyStartIndex } from "@/features/activities/components/activity-row";
import { CardSkeletons } from "@/features/activities/components/card-skeletons";
import { CategoryRow } from "@/features/activities/components/category-row";
import { FeaturedCarousel } from "@/features/activities/components/featured-carousel";
import { HomeShortcuts, LuckyNumbersCard } from "@/features/activities/components/home-extras";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { StationLogo } from "@/features/stations";
import "./activities.css";

export const HOME_EMPTY_TEXT = "Ainda não existem atividades no ar...";

export function HomePage() {
  const featured = useFeaturedActivities();
  const nowPlaying = useNowPlaying();
  const journeys = useJourneys();
  const categories = useCategories();
  useErrorToast(featured.error);
  useErrorToast(nowPlaying.error);
  useErrorToast(journeys.error);
  useErrorToast(categories.error);

  const loading = featured.isPending || nowPlaying.isPending || journeys.isPending || categories.isPending;
  const featuredRows = featured.data ?? [];
  const nowPlayingRows = (nowPlaying.data ?? []).filter((row) => row.actions.length > 0);
  const journeyRows = (journeys.data ?? []).filter((journey) => journey.actions.length > 0);
  const categoryRows = (categories.data ?? []).filter((category) => category.category_actions.length > 0);
  const empty =
    featuredRows.length + nowPlayingRows.length + journeyRows.length + categoryRows.length === 0;

  return (
    <section className="activities-home">
      <h1 className="visually-hidden">Início</h1>
      <div className="activities-home__logo">
        <StationLogo className="activities-home__logo-image" />
      </div>
      <LuckyNumbersCard />
      <HomeShortcuts />
      {loading ? (
        <CardSkeletons />
      ) : empty ? (
        <p className="list-page__empty">{HOME_EMPTY_TEXT}</p>
      ) : (
        <>
          <FeaturedCarousel activities={featuredRows} />
          {nowPlayingRows.map((row) => (
            <ActivityRow key={`now-playing-${row.id}`} kind="now-playing" title={row.title} activities={row.actions} />
          ))}
          {journeyRows.map((journey) => (
            <ActivityRow
              key={`journey-${journey.id}`}
              kind="journey"
              title={journey.name}
              subtitle={`${journey.completed} de ${journey.actions.length} concluídas`}
              activities={journey.actions}
              startIndex={journeyStartIndex(journey.actions)}
            />
          ))}
          {categoryRows.map((category) => (
            <CategoryRow key={`category-${category.id}`} category={category} />
          ))}
        </>
      )}
    </section>
  );
}
