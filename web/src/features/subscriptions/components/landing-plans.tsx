// The landing's plans section (spec 002 section 2, type 7): the station's plans by price,
// each leading a visitor to its public page /planos/{id} (which leads on to /cadastrar), or,
// for a plan 'A negociar', straight to /cadastrar. Nothing shows when the station sells none
// or the call fails: the landing is whole without it. Where the station offers it
// (`enterprise_plan_access`), the Enterprise card follows, to /suporte-enterprise.
import { Link } from "react-router";
import { usePlans } from "@/features/subscriptions/api/plans";
import { EnterprisePlanCard, PlanCard, PlanCardSkeletons } from "@/features/subscriptions/components/plan-card";
import { useStation } from "@/features/stations";
import { planPriceCents, sortPlans } from "@/features/subscriptions/plans";
import "./subscriptions.css";

export const SEE_PLAN_TEXT = "Conhecer o plano";
export const SIGN_UP_FOR_PLAN_TEXT = "Cadastre-se";

export const LANDING_ENTERPRISE_PATH = "/suporte-enterprise";

export function LandingPlans() {
  const plans = usePlans();
  const enterprise = useStation().enterprise_plan_access;
  if (plans.isPending) return <PlanCardSkeletons />;
  const shown = sortPlans(plans.data ?? []);
  if (shown.length === 0 && !enterprise) return null;
  return (
    <div className="plan-cards">
      {shown.map((plan) => {
        const negotiated = planPriceCents(plan) === null;
        const label = negotiated ? SIGN_UP_FOR_PLAN_TEXT : SEE_PLAN_TEXT;
        return (
          <PlanCard
            key={plan.id}
            plan={plan}
            action={
              <Link
                className="button button--primary"
                to={negotiated ? "/cadastrar" : `/planos/${plan.id}`}
                aria-label={`${label}: ${plan.name}`}
              >
                {label}
              </Link>
            }
          />
        );
      })}
      {enterprise && <EnterprisePlanCard to={LANDING_ENTERPRISE_PATH} />}
    </div>
  );
}
