// /homepage/planos (spec 002 "Subscriptions and plans"): the station's plans by price, each
// with its button for this member (buy, upgrade, downgrade, the current one disabled, 'A
// negociar' to the enterprise form), and the member's plan with its card and cancellation.
// Where the station offers it (`enterprise_plan_access`), the Enterprise card follows the
// plans, to the enterprise form.
import { useState } from "react";
import { Link } from "react-router";
import { ListPage } from "@/components/list-page";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { usePlans } from "@/features/subscriptions/api/plans";
import { useCurrentSubscription } from "@/features/subscriptions/api/subscription";
import type { Plan, UserSubscription } from "@/features/subscriptions/api/types";
import { CancelPlanDialog } from "@/features/subscriptions/components/cancel-plan-dialog";
import { EnterprisePlanCard, PlanCard, PlanCardSkeletons } from "@/features/subscriptions/components/plan-card";
import { ENTERPRISE_PATH, planButton, sortPlans } from "@/features/subscriptions/plans";
import { useStation } from "@/features/stations";
import { formatDate } from "@/lib/dates";
import "./subscriptions.css";

export const PLANS_TITLE = "Planos";
export const NO_PLANS_TEXT = "Não há planos disponíveis.";
export const EDIT_PAYMENT_PATH = "/homepage/planos/editar-pagamento";

function PlanButton({ plan, current }: { plan: Plan; current: UserSubscription | null }) {
  const button = planButton(plan, current);
  if (button.to === null) {
    return (
      <button type="button" className="button button--secondary" disabled>
        {button.label}
      </button>
    );
  }
  return (
    <Link className="button button--primary" to={button.to} aria-label={`${button.label}: ${plan.name}`}>
      {button.label}
    </Link>
  );
}

/** The member's plan: when it renews or ends, its card, and the way to change or cancel. */
export function CurrentPlan({ subscription }: { subscription: UserSubscription }) {
  const [cancelling, setCancelling] = useState(false);
  const end = formatDate(subscription.current_period_end);
  return (
    <section className="current-plan" aria-labelledby="current-plan-title">
      <h2 id="current-plan-title" className="current-plan__title">
        Seu plano: {subscription.plan.name}
      </h2>
      {end !== "" && (
        <p>{subscription.cancel_at_period_end ? `Cancelado. Ativo até ${end}.` : `Próxima renovação em ${end}.`}</p>
      )}
      {subscription.next_plan && <p>A partir da renovação: {subscription.next_plan.name}.</p>}
      {subscription.card && (
        <p>
          Cartão: {subscription.card.brand} final {subscription.card.last_digits}
        </p>
      )}
      <div className="current-plan__actions">
        <Link className="button button--secondary" to={EDIT_PAYMENT_PATH}>
          Alterar cartão
        </Link>
        {!subscription.cancel_at_period_end && (
          <button type="button" className="button button--secondary" onClick={() => setCancelling(true)}>
            Cancelar plano
          </button>
        )}
      </div>
      {cancelling && <CancelPlanDialog onClose={() => setCancelling(false)} />}
    </section>
  );
}

export function PlansPage() {
  const plans = usePlans();
  const current = useCurrentSubscription();
  const enterprise = useStation().enterprise_plan_access;
  useErrorToast(plans.error ?? current.error);
  const subscription = current.data ?? null;
  const shown = plans.data ? sortPlans(plans.data) : [];
  return (
    <ListPage title={PLANS_TITLE}>
      {subscription && <CurrentPlan subscription={subscription} />}
      {plans.isPending || current.isPending ? (
        <PlanCardSkeletons />
      ) : shown.length === 0 && !enterprise ? (
        plans.isError ? null : <p className="list-page__empty">{NO_PLANS_TEXT}</p>
      ) : (
        <div className="plan-cards">
          {shown.map((plan) => (
            <PlanCard key={plan.id} plan={plan} action={<PlanButton plan={plan} current={subscription} />} />
          ))}
          {enterprise && <EnterprisePlanCard to={ENTERPRISE_PATH} />}
        </div>
      )}
    </ListPage>
  );
}
