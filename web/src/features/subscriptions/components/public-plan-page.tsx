// /planos/{id}, open to visitors (spec 002): one plan and the way to sign up.
import { Link, useParams } from "react-router";
import { NotFoundPage } from "@/components/not-found-page";
import { usePlan } from "@/features/subscriptions/api/plans";
import { PlanCard, PlanCardSkeletons } from "@/features/subscriptions/components/plan-card";
import { planIdOf } from "@/features/subscriptions/plan-id";
import "./subscriptions.css";

export const SIGN_UP_TEXT = "Cadastre-se";

export function PublicPlanPage() {
  const id = planIdOf(useParams().id);
  const plan = usePlan(id);
  if (id === null || plan.isError || plan.data?.deletedAt) return <NotFoundPage />;
  return (
    <main className="public-plan">
      {plan.isPending ? (
        <PlanCardSkeletons count={1} />
      ) : (
        <PlanCard
          plan={plan.data}
          nameHeading="h1"
          action={
            <Link className="button button--primary" to="/cadastrar">
              {SIGN_UP_TEXT}
            </Link>
          }
        />
      )}
    </main>
  );
}
