// The subscription page's card form ('Cadastrar novo cartão', tokenised in the browser),
// loaded when a screen of another feature first shows it (/homepage/meios-de-pagamento/criar).
import { lazy, Suspense } from "react";

const Form = lazy(async () => ({
  default: (await import("@/features/subscriptions/components/subscription-card-page")).NewCardForm,
}));

/** Saves a new card (`POST /user-credit-cards`); `onSaved` after 'Cartão salvo com sucesso'. */
export function SavedCardForm({ onSaved }: { onSaved: () => void }) {
  return (
    <Suspense fallback={null}>
      <Form onSaved={onSaved} />
    </Suspense>
  );
}
