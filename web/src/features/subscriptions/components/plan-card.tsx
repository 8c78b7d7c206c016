// One plan (spec 002 "Subscriptions and plans"): 'Mais popular' on the highlighted one, the
// price per period or 'A negociar', five benefits and 'E muito mais!', and its button.
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Plan } from "@/features/subscriptions/api/types";
import {
  CONTACT_TEXT,
  ENTERPRISE_CARD_NAME,
  ENTERPRISE_CARD_TEXT,
  MORE_BENEFITS_TEXT,
  MOST_POPULAR_TEXT,
  TO_NEGOTIATE_TEXT,
  planPriceText,
  shownBenefits,
} from "@/features/subscriptions/plans";

interface PlanCardProps {
  plan: Plan;
  /** The card's action (a link or a disabled button). */
  action: ReactNode;
  /** The plan's name is the page's main heading where the card is the page (/planos/{id}). */
  nameHeading?: "h1" | "h2";
}

export function PlanCard({ plan, action, nameHeading: Name = "h2" }: PlanCardProps) {
  const { shown, more } = shownBenefits(plan.benefits);
  const titleId = `plan-${plan.id}-name`;
  return (
    <article className={`plan-card${plan.is_highlighted ? " plan-card--highlighted" : ""}`} aria-labelledby={titleId}>
      {plan.is_highlighted && <p className="plan-card__badge">{MOST_POPULAR_TEXT}</p>}
      {plan.image && <img className="plan-card__image" src={plan.image} alt="" />}
      <Name id={titleId} className="plan-card__name">
        {plan.name}
      </Name>
      <p className="plan-card__price">{planPriceText(plan)}</p>
      {plan.description && <p className="plan-card__description">{plan.description}</p>}
      {shown.length > 0 && (
        <ul className="plan-card__benefits">
          {shown.map((benefit) => (
            <li key={benefit.id}>{benefit.benefit}</li>
          ))}
          {more && <li className="plan-card__more">{MORE_BENEFITS_TEXT}</li>}
        </ul>
      )}
      <div className="plan-card__action">{action}</div>
    </article>
  );
}

export function PlanCardSkeletons({ count = 3 }: { count?: number }) {
  return (
    <div className="plan-cards" role="status" aria-label="Carregando planos" aria-busy="true">
      {Array.from({ length: count }, (_, index) => (
        <span key={index} className="plan-card plan-card--skeleton skeleton-shimmer" aria-hidden="true" />
      ))}
    </div>
  );
}

/**
 * The Enterprise card, after the plans where the station offers it (`enterprise_plan_access`):
 * to /suporte-enterprise on the landing, to /homepage/planos/sobconsulta for a member.
 */
export function EnterprisePlanCard({ to }: { to: string }) {
  return (
    <article className="plan-card plan-card--enterprise" aria-labelledby="plan-enterprise-name">
      <h2 id="plan-enterprise-name" className="plan-card__name">
        {ENTERPRISE_CARD_NAME}
      </h2>
      <p className="plan-card__price">{TO_NEGOTIATE_TEXT}</p>
      <p className="plan-card__description">{ENTERPRISE_CARD_TEXT}</p>
      <div className="plan-card__action">
        <Link className="button button--primary" to={to} aria-label={`${CONTACT_TEXT}: ${ENTERPRISE_CARD_NAME}`}>
          {CONTACT_TEXT}
        </Link>
      </div>
    </article>
  );
}
