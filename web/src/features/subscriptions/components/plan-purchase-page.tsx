// /homepage/planos/:id/:action (spec 002): buying a plan (comprar, no plan yet) or changing
// to it (mudar). The card is a saved one or a new one tokenised in the browser; a plan
// costing nothing now asks for none ('Você não será cobrado nenhum valor.', 'Continuar').
// The confirmation shows once the answer's transaction has a date.
import { useState } from "react";
import { Link, Navigate, useParams } from "react-router";
import { NotFoundPage } from "@/components/not-found-page";
import { useForm } from "@/components/form/use-form";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { useSnackbar, useToast } from "@/components/toasts/use-toast";
import { useSavedCards } from "@/features/subscriptions/api/cards";
import { usePlan } from "@/features/subscriptions/api/plans";
import { useCurrentSubscription, useSavePlan } from "@/features/subscriptions/api/subscription";
import type { Plan, UserSubscription } from "@/features/subscriptions/api/types";
import { CardFields } from "@/features/subscriptions/components/card-fields";
import { ErrorList } from "@/features/subscriptions/components/error-list";
import { PlanCardSkeletons } from "@/features/subscriptions/components/plan-card";
import {
  CANCEL_ANYTIME_TEXT,
  CONTINUE_TEXT,
  NOTHING_CHARGED_TEXT,
  ORDER_PLACED_TEXT,
  PAY_TEXT,
  SUCCESS_TEXT,
  SUCCESS_TITLE,
  subscriptionErrorTexts,
} from "@/features/subscriptions/messages";
import { planIdOf } from "@/features/subscriptions/plan-id";
import {
  CURRENT_PLAN_TEXT,
  ENTERPRISE_PATH,
  planPriceCents,
  planPriceText,
  planPurchasePath,
  type PlanAction,
} from "@/features/subscriptions/plans";
import { EMPTY_CARD_FORM, KEEP_CARD, NEW_CARD, cardFormRules, type CardFormValues } from "@/features/subscriptions/subscription-form";
import { useCardChoice } from "@/features/subscriptions/use-card-choice";
import { ApiError } from "@/lib/api-client";
import { formatDate } from "@/lib/dates";
import "./subscriptions.css";

export const PROCESSING_TEXT = "Seu pagamento está em análise. Avisaremos por e-mail assim que for confirmado.";

/**
 * Whether the change or purchase charges nothing now: a plan costing nothing, or a
 * downgrade, which takes effect at the period's end (docs/decisions.md).
 */
export function chargesNothingNow(plan: Plan, current: UserSubscription | null): boolean {
  const price = planPriceCents(plan) ?? 0;
  if (price === 0) return true;
  return current !== null && price < (planPriceCents(current.plan) ?? 0);
}

function Confirmation({ subscription }: { subscription: UserSubscription }) {
  return (
    <section className="subscription-done" aria-labelledby="subscription-done-title">
      <h1 id="subscription-done-title" className="page-title">
        {ORDER_PLACED_TEXT}
      </h1>
      <dl className="subscription-done__details">
        <dt>Plano</dt>
        <dd>{subscription.plan.name}</dd>
        <dt>Valor</dt>
        <dd>{planPriceText(subscription.plan)}</dd>
        <dt>Data</dt>
        <dd>{formatDate(subscription.transaction?.date_created)}</dd>
        {subscription.transaction && (
          <>
            <dt>Transação</dt>
            <dd>{subscription.transaction.id}</dd>
          </>
        )}
      </dl>
      <Link className="button button--primary" to="/homepage/planos">
        Ver planos
      </Link>
    </section>
  );
}

interface PurchaseFormProps {
  plan: Plan;
  current: UserSubscription | null;
  action: PlanAction;
  onDone: (subscription: UserSubscription) => void;
}

function PurchaseForm({ plan, current, action, onDone }: PurchaseFormProps) {
  const free = chargesNothingNow(plan, current);
  const cards = useSavedCards(!free);
  const savedCards = cards.data ?? [];
  const initialCard = current?.card ? KEEP_CARD : NEW_CARD;
  const form = useForm<CardFormValues>({ ...EMPTY_CARD_FORM, selected_card: initialCard }, cardFormRules({ asksCard: !free }));
  const save = useSavePlan();
  const cardChoice = useCardChoice();
  const showToast = useToast();
  const showSnackbar = useSnackbar();
  const [errors, setErrors] = useState<string[]>([]);

  const submit = form.handleSubmit((values) => {
    setErrors([]);
    save.mutate(
      {
        subscriptionId: action === "mudar" && current ? current.id : null,
        body: async () => {
          if (free || values.selected_card === KEEP_CARD) return { plan_id: plan.id };
          return { plan_id: plan.id, ...(await cardChoice(values)) };
        },
      },
      {
        onSuccess: (subscription) => {
          showToast({ title: SUCCESS_TITLE, text: SUCCESS_TEXT });
          onDone(subscription);
        },
        onError: (error) => {
          const texts = subscriptionErrorTexts(error);
          setErrors(texts);
          showSnackbar(texts[0] ?? "");
        },
      },
    );
  });

  return (
    <form className="subscription-form" onSubmit={submit} noValidate aria-busy={save.isPending}>
      <h1 className="page-title">{plan.name}</h1>
      <p className="subscription-form__price">{planPriceText(plan)}</p>

      {free ? (
        <p className="subscription-form__free">{NOTHING_CHARGED_TEXT}</p>
      ) : (
        <CardFields form={form} savedCards={savedCards} currentCard={current?.card ?? null} offerSave />
      )}
      {/* The plan's own words on its recurring charge, else ours: either says it may be cancelled at any time. */}
      <p className="subscription-form__note">{plan.purchase_text ?? CANCEL_ANYTIME_TEXT}</p>
      <ErrorList texts={errors} />
      <div className="subscription-form__actions">
        <Link className="button button--secondary" to="/homepage/planos">
          Voltar
        </Link>
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {free ? CONTINUE_TEXT : PAY_TEXT}
        </button>
      </div>
    </form>
  );
}

/** What the purchase answered: the confirmation once paid, a notice while the provider decides. */
function Done({ subscription }: { subscription: UserSubscription }) {
  if (subscription.transaction?.date_created) return <Confirmation subscription={subscription} />;
  if (subscription.status === "incomplete") return <p role="status">{PROCESSING_TEXT}</p>;
  return <Navigate to="/homepage/planos" replace />;
}

export function PlanPurchasePage() {
  const params = useParams();
  const id = planIdOf(params.id);
  const plan = usePlan(id);
  const current = useCurrentSubscription();
  // Kept here: the answer becomes the member's plan, which would otherwise turn this page
  // into the "current plan" notice before the confirmation shows.
  const [done, setDone] = useState<UserSubscription | null>(null);
  // A plan that is not there (another station's, deleted) is the not-found page, not a failure.
  const planMissing = plan.error instanceof ApiError && plan.error.status === 404;
  useErrorToast((planMissing ? null : plan.error) ?? current.error);
  if (done) return <Done subscription={done} />;
  if (id === null || (params.action !== "comprar" && params.action !== "mudar")) return <NotFoundPage />;
  if (plan.isError) return <NotFoundPage />;
  if (plan.isPending || current.isPending) return <PlanCardSkeletons count={1} />;
  if (current.isError) return null;
  const subscription = current.data;
  // With no plan the action is comprar; with one it is mudar (spec 002).
  const action: PlanAction = subscription ? "mudar" : "comprar";
  if (action !== params.action) return <Navigate to={planPurchasePath(id, action)} replace />;
  if (plan.data.amount === null) return <Navigate to={ENTERPRISE_PATH} replace />;
  if (subscription?.plan.id === plan.data.id) {
    return (
      <section className="subscription-form">
        <h1 className="page-title">{plan.data.name}</h1>
        <p>{CURRENT_PLAN_TEXT}</p>
        <Link className="button button--secondary" to="/homepage/planos">
          Voltar
        </Link>
      </section>
    );
  }
  return <PurchaseForm key={plan.data.id} plan={plan.data} current={subscription} action={action} onDone={setDone} />;
}
