// A category's activities in the featured carousel, under the category's name: a desk's
// landing shows the one its station chose (spec 002 "Legal consultancy"). Nothing shows while
// it loads, when the category is empty or gone, or when the call fails: the landing is whole
// without it.
import { useCategoryCarousel } from "@/features/activities/api/get-home";
import { FeaturedCarousel } from "@/features/activities/components/featured-carousel";
import "./activities.css";

export function CategoryCarousel({ categoryId }: { categoryId: number }) {
  const category = useCategoryCarousel(categoryId).data;
  const activities = category?.category_actions.map(({ action }) => action) ?? [];
  if (!category || activities.length === 0) return null;
  return <FeaturedCarousel activities={activities} title={category.name} />;
}
