// /homepage/meios-de-pagamento/criar: the spec's credit card form (the subscription page's,
// number tokenised in the browser), then 'Sucesso' / 'Cartão salvo com sucesso' and back to
// the cards, which reload.
import { useNavigate } from "react-router";
import { PAYMENT_METHODS_PATH } from "@/features/payment-methods/paths";
import { SavedCardForm } from "@/features/subscriptions";

export function NewCardPage() {
  const navigate = useNavigate();
  return <SavedCardForm onSaved={() => void navigate(PAYMENT_METHODS_PATH)} />;
}
