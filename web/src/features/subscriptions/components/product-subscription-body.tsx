// Type 21 on the activity page (spec 001 and 002): the product, the recurrence and the card,
// then POST /subscribe-product-action and 'Minhas assinaturas' of the activity. No product
// chosen is 'Produto não selecionado'; none on sale is 'Produto indisponível para
// assinatura no momento.'.
import { useId, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useForm } from "@/components/form/use-form";
import { useSnackbar, useToast } from "@/components/toasts/use-toast";
import { formatBrl } from "@/features/commerce";
import { useSavedCards } from "@/features/subscriptions/api/cards";
import {
  useActionProducts,
  useLastActionSubscription,
  useSubscribeProduct,
} from "@/features/subscriptions/api/product-subscription";
import { CardFields } from "@/features/subscriptions/components/card-fields";
import { ErrorList } from "@/features/subscriptions/components/error-list";
import {
  CANCEL_ANYTIME_TEXT,
  NO_PRODUCT_TEXT,
  NO_PRODUCT_TITLE,
  PRODUCT_UNAVAILABLE_TEXT,
  SUCCESS_TEXT,
  SUCCESS_TITLE,
  subscriptionErrorTexts,
} from "@/features/subscriptions/messages";
import { recurrenceLabel } from "@/features/subscriptions/plans";
import { EMPTY_CARD_FORM, cardFormRules, type CardFormValues } from "@/features/subscriptions/subscription-form";
import { useCardChoice } from "@/features/subscriptions/use-card-choice";
import type { Activity, Product } from "@/types/api";
import "./subscriptions.css";

export const SUBSCRIBE_BUTTON = "Assinar";
export const ALREADY_SUBSCRIBED_TEXT = "Você já assina este produto.";

const priceOf = (product: Product) => Math.max(0, product.value - Math.max(0, product.discount_value));

function SubscriptionForm({ activity, products }: { activity: Activity; products: Product[] }) {
  const recurrences = activity.action_subscriptions;
  const [productId, setProductId] = useState<number | null>(null);
  const [recurrenceId, setRecurrenceId] = useState<number | null>(recurrences[0]?.id ?? null);
  const cards = useSavedCards();
  const form = useForm<CardFormValues>(EMPTY_CARD_FORM, cardFormRules({ asksCard: true }));
  const subscribe = useSubscribeProduct();
  const cardChoice = useCardChoice();
  const showToast = useToast();
  const showSnackbar = useSnackbar();
  const navigate = useNavigate();
  const [errors, setErrors] = useState<string[]>([]);
  const productLegend = useId();
  const recurrenceLegend = useId();

  const submit = form.handleSubmit((values) => {
    if (productId === null) {
      showToast({ title: NO_PRODUCT_TITLE, text: NO_PRODUCT_TEXT });
      return;
    }
    if (recurrenceId === null) return;
    setErrors([]);
    subscribe.mutate(
      async () => ({
        action_id: activity.id,
        action_subscription_id: recurrenceId,
        products: [{ id: productId, quantity: 1 }],
        ...(await cardChoice(values)),
      }),
      {
        onSuccess: () => {
          showToast({ title: SUCCESS_TITLE, text: SUCCESS_TEXT });
          void navigate(`/homepage/assinaturas/${activity.id}`);
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
    <form className="product-subscription" onSubmit={submit} noValidate aria-busy={subscribe.isPending}>
      <fieldset className="product-subscription__choices" aria-labelledby={productLegend}>
        <legend id={productLegend}>Produto</legend>
        {products.map((product) => (
          <label key={product.id} className="product-subscription__choice">
            <input
              type="radio"
              name="product"
              value={product.id}
              checked={productId === product.id}
              onChange={() => setProductId(product.id)}
            />
            <span>{product.name}</span>
            <span className="product-subscription__price">{formatBrl(priceOf(product))}</span>
          </label>
        ))}
      </fieldset>
      {recurrences.length > 0 && (
        <fieldset className="product-subscription__choices" aria-labelledby={recurrenceLegend}>
          <legend id={recurrenceLegend}>Recorrência</legend>
          {recurrences.map((option) => (
            <label key={option.id} className="product-subscription__choice">
              <input
                type="radio"
                name="recurrence"
                value={option.id}
                checked={recurrenceId === option.id}
                onChange={() => setRecurrenceId(option.id)}
              />
              <span>{recurrenceLabel(option.recurrence)}</span>
              {option.description && <span className="product-subscription__description">{option.description}</span>}
            </label>
          ))}
        </fieldset>
      )}
      <CardFields form={form} savedCards={cards.data ?? []} offerSave />
      <p className="subscription-form__note">{CANCEL_ANYTIME_TEXT}</p>
      <ErrorList texts={errors} />
      <button type="submit" className="button button--primary" disabled={subscribe.isPending}>
        {SUBSCRIBE_BUTTON}
      </button>
    </form>
  );
}

export function ProductSubscriptionBody({ activity }: { activity: Activity }) {
  const products = useActionProducts(activity.id);
  const last = useLastActionSubscription(activity.id);
  if (products.isPending || last.isPending) {
    return (
      <div
        className="product-subscription product-subscription--skeleton skeleton-shimmer"
        role="status"
        aria-busy="true"
        aria-label="Carregando produtos"
      />
    );
  }
  // A live subscription is managed in 'Minhas assinaturas'; a new one waits for its end.
  if (last.data && !last.data.cancelled) {
    return (
      <div className="product-subscription">
        <p>{ALREADY_SUBSCRIBED_TEXT}</p>
        <Link className="button button--secondary" to={`/homepage/assinaturas/${activity.id}`}>
          Minhas assinaturas
        </Link>
      </div>
    );
  }
  const onSale = (products.data ?? []).filter((product) => product.stock > 0);
  if (products.isError || onSale.length === 0 || activity.action_subscriptions.length === 0) {
    return <p className="product-subscription__unavailable">{PRODUCT_UNAVAILABLE_TEXT}</p>;
  }
  return <SubscriptionForm activity={activity} products={onSale} />;
}
