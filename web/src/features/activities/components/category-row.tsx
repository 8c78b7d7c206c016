// A category on the home: its first 4 cards (2 a line on extra-small screens), the only ones
// the home asks for, and a link to the whole category when it has more (`actions_count`).
import { Link } from "react-router";
import type { Category } from "@/types/api";
import { CATEGORY_ROW_SIZE } from "@/features/activities/api/get-home";
import { ActivityCard } from "@/features/activities/components/activity-card";

export function CategoryRow({ category }: { category: Category }) {
  const actions = category.category_actions.map(({ action }) => action);
  return (
    <section className="category-row" aria-label={category.name}>
      <header className="category-row__header">
        {category.icon && <img className="category-row__icon" src={category.icon} alt="" />}
        <h2 className="category-row__title">{category.name}</h2>
        {category.actions_count > CATEGORY_ROW_SIZE && (
          <Link className="category-row__more" to={`/homepage/categoria/${category.id}`}>
            Ver mais
          </Link>
        )}
      </header>
      <ul className="category-row__list">
        {actions.slice(0, CATEGORY_ROW_SIZE).map((activity) => (
          <li key={activity.id}>
            <ActivityCard activity={activity} variant="home" />
          </li>
        ))}
      </ul>
    </section>
  );
}
