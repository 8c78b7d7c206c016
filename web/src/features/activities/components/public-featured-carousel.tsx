// The landing page's public activities carousel (spec 002, landing section type 5): the
// members' carousel with a visitor's cards, type 13 opening its link and the others their
// public page. Nothing shows while it loads, when the station features none, or when the
// call fails: the landing is whole without it.
import { usePublicFeaturedActivities } from "@/features/activities/api/get-public-featured";
import { FeaturedCarousel } from "@/features/activities/components/featured-carousel";
import "./activities.css";

export function PublicFeaturedCarousel({ className }: { className?: string }) {
  const featured = usePublicFeaturedActivities();
  const activities = featured.data ?? [];
  if (activities.length === 0) return null;
  return (
    <div className={className}>
      <FeaturedCarousel activities={activities} audience="visitor" />
    </div>
  );
}
