// /homepage/planos/editar-pagamento (spec 002): the plan's card, replaced by a saved card
// or a new one (PUT /subscriptions/{id}/card); an unpaid period is tried again with it.
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useForm } from "@/components/form/use-form";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { useSnackbar } from "@/components/toasts/use-toast";
import { useSavedCards } from "@/features/subscriptions/api/cards";
import { useCurrentSubscription, useReplaceSubscriptionCard } from "@/features/subscriptions/api/subscription";
import type { UserSubscription } from "@/features/subscriptions/api/types";
import { CardFields } from "@/features/subscriptions/components/card-fields";
import { ErrorList } from "@/features/subscriptions/components/error-list";
import { PlanCardSkeletons } from "@/features/subscriptions/components/plan-card";
import { SUCCESS_TEXT, subscriptionErrorTexts } from "@/features/subscriptions/messages";
import { EMPTY_CARD_FORM, cardFormRules, type CardFormValues } from "@/features/subscriptions/subscription-form";
import { useCardChoice } from "@/features/subscriptions/use-card-choice";
import "./subscriptions.css";

export const EDIT_PAYMENT_TITLE = "Alterar cartão do plano";
export const NO_PLAN_TEXT = "Você não possui um plano.";

function EditPaymentForm({ subscription }: { subscription: UserSubscription }) {
  const cards = useSavedCards();
  const form = useForm<CardFormValues>(EMPTY_CARD_FORM, cardFormRules({ asksCard: true }));
  const replaceCard = useReplaceSubscriptionCard();
  const cardChoice = useCardChoice();
  const showSnackbar = useSnackbar();
  const navigate = useNavigate();
  const [errors, setErrors] = useState<string[]>([]);
  const submit = form.handleSubmit((values) => {
    setErrors([]);
    replaceCard.mutate(
      { subscriptionId: subscription.id, body: () => cardChoice(values) },
      {
        onSuccess: () => {
          showSnackbar(SUCCESS_TEXT);
          void navigate("/homepage/planos");
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
    <form className="subscription-form" onSubmit={submit} noValidate aria-busy={replaceCard.isPending}>
      <h1 className="page-title">{EDIT_PAYMENT_TITLE}</h1>
      <p>Plano: {subscription.plan.name}</p>
      {subscription.card && (
        <p>
          Cartão atual: {subscription.card.brand} final {subscription.card.last_digits}
          {subscription.card.expiration_date ? ` (validade ${subscription.card.expiration_date})` : ""}
        </p>
      )}
      <CardFields form={form} savedCards={cards.data ?? []} legend="Novo cartão do plano" />
      <ErrorList texts={errors} />
      <div className="subscription-form__actions">
        <Link className="button button--secondary" to="/homepage/planos">
          Voltar
        </Link>
        <button type="submit" className="button button--primary" disabled={replaceCard.isPending}>
          Salvar
        </button>
      </div>
    </form>
  );
}

export function EditPaymentPage() {
  const current = useCurrentSubscription();
  useErrorToast(current.error);
  if (current.isPending) return <PlanCardSkeletons count={1} />;
  if (current.isError) return null;
  if (!current.data) {
    return (
      <section className="subscription-form">
        <h1 className="page-title">{EDIT_PAYMENT_TITLE}</h1>
        <p>{NO_PLAN_TEXT}</p>
        <Link className="button button--primary" to="/homepage/planos">
          Ver planos
        </Link>
      </section>
    );
  }
  return <EditPaymentForm subscription={current.data} />;
}
