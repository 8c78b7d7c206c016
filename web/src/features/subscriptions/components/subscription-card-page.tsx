// /homepage/cartao-assinatura, 'Cadastrar novo cartão' (spec 002) with a live preview. With
// `?assinatura={id}` ('Novo cartão' of an unpaid charge) the card becomes that
// subscription's and its unpaid period is tried again at once; otherwise it is saved
// (POST /user-credit-cards) and the form starts over.
import { useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { useForm } from "@/components/form/use-form";
import { useSnackbar, useToast } from "@/components/toasts/use-toast";
import { useSaveCard } from "@/features/subscriptions/api/cards";
import { useReplaceSubscriptionCard } from "@/features/subscriptions/api/subscription";
import { CardFields } from "@/features/subscriptions/components/card-fields";
import { CardPreview } from "@/features/subscriptions/components/card-preview";
import { ErrorList } from "@/features/subscriptions/components/error-list";
import {
  CARD_SAVED_TEXT,
  CARD_SAVED_TITLE,
  SUCCESS_TEXT,
  subscriptionErrorTexts,
} from "@/features/subscriptions/messages";
import { planIdOf } from "@/features/subscriptions/plan-id";
import { EMPTY_CARD_FORM, cardFormRules, type CardFormValues } from "@/features/subscriptions/subscription-form";
import { useCardChoice, useNewCard } from "@/features/subscriptions/use-card-choice";
import "./subscriptions.css";

export const NEW_CARD_TITLE = "Cadastrar novo cartão";
export const SUBSCRIPTION_PARAM = "assinatura";

export function SubscriptionCardPage() {
  const [params] = useSearchParams();
  const subscriptionId = planIdOf(params.get(SUBSCRIPTION_PARAM) ?? undefined);
  const [formKey, setFormKey] = useState(0);
  return <NewCardForm key={formKey} subscriptionId={subscriptionId} onSaved={() => setFormKey((key) => key + 1)} />;
}

interface NewCardFormProps {
  /** 'Novo cartão' of an unpaid charge: the card becomes this subscription's. */
  subscriptionId?: number | null;
  onSaved: () => void;
}

/** The spec's credit card form with its live preview; also /homepage/meios-de-pagamento/criar's. */
export function NewCardForm({ subscriptionId = null, onSaved }: NewCardFormProps) {
  const form = useForm<CardFormValues>({ ...EMPTY_CARD_FORM, save: true }, cardFormRules({ asksCard: true }));
  const saveCard = useSaveCard();
  const replaceCard = useReplaceSubscriptionCard();
  const newCard = useNewCard();
  const cardChoice = useCardChoice();
  const showToast = useToast();
  const showSnackbar = useSnackbar();
  const navigate = useNavigate();
  const [errors, setErrors] = useState<string[]>([]);
  const pending = saveCard.isPending || replaceCard.isPending;
  const onError = (error: Error) => {
    const texts = subscriptionErrorTexts(error);
    setErrors(texts);
    showSnackbar(texts[0] ?? "");
  };

  const submit = form.handleSubmit((values) => {
    setErrors([]);
    if (subscriptionId !== null) {
      replaceCard.mutate(
        { subscriptionId, body: () => cardChoice(values) },
        {
          onSuccess: () => {
            showSnackbar(SUCCESS_TEXT);
            void navigate("/homepage/assinaturas");
          },
          onError,
        },
      );
      return;
    }
    saveCard.mutate(() => newCard(values), {
      onSuccess: () => {
        showToast({ title: CARD_SAVED_TITLE, text: CARD_SAVED_TEXT });
        onSaved();
      },
      onError,
    });
  });

  return (
    <form className="subscription-form" onSubmit={submit} noValidate aria-busy={pending}>
      <h1 className="page-title">{NEW_CARD_TITLE}</h1>
      <CardPreview number={form.values.number} name={form.values.name} expiry={form.values.expiry} />
      <CardFields form={form} legend="Dados do cartão" />
      <ErrorList texts={errors} />
      <div className="subscription-form__actions">
        <button type="submit" className="button button--primary" disabled={pending}>
          Salvar cartão
        </button>
      </div>
    </form>
  );
}
