// /homepage/meios-de-pagamento (spec 002 "Wallet, cards and transfers"): the member's saved
// cards (masked number, last digits, issuer, expiry, the default), 'Adicionar' to the card
// form, remove with a confirmation, make one the default; placeholders while they load, a
// retry when they cannot be read, and the empty text when there are none.
import { useState } from "react";
import { Link } from "react-router";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { ListPage, Skeletons } from "@/components/list-page";
import { useMakeDefaultCard, usePaymentMethods, useRemoveCard } from "@/features/payment-methods/api/payment-methods";
import { NEW_CARD_PATH } from "@/features/payment-methods/paths";
import type { SavedCard } from "@/types/api";
import "./payment-methods.css";

export const PAYMENT_METHODS_TITLE = "Meios de pagamento";
export const NO_PAYMENT_METHODS_TEXT =
  "Você ainda não possui meios de pagamento cadastrados. Cadastre um cartão para abastecer sua carteira de créditos com ele.";
export const LOAD_ERROR_TEXT = "Não foi possível carregar os seus meios de pagamento.";
const SKELETON_CARDS = 5;

/** `visa` → `Visa`. */
function brandName(brand: string): string {
  return brand.charAt(0).toUpperCase() + brand.slice(1);
}

function maskedNumber(card: SavedCard): string {
  return `•••• •••• •••• ${card.last_digits}`;
}

interface CardItemProps {
  card: SavedCard;
  busy: boolean;
  onMakeDefault: () => void;
  onRemove: () => void;
}

function CardItem({ card, busy, onMakeDefault, onRemove }: CardItemProps) {
  const name = `${brandName(card.brand)} final ${card.last_digits}`;
  return (
    <li className="payment-card" aria-label={name}>
      <div className="payment-card__head">
        <span className="payment-card__brand">{brandName(card.brand)}</span>
        {card.is_default && <span className="payment-card__default">Padrão</span>}
      </div>
      <span className="payment-card__number" aria-label={`Cartão final ${card.last_digits}`}>
        {maskedNumber(card)}
      </span>
      <span className="payment-card__detail">Emissor: {brandName(card.issuing)}</span>
      {card.expiration_date !== null && <span className="payment-card__detail">Validade: {card.expiration_date}</span>}
      <div className="payment-card__actions">
        {!card.is_default && (
          <button type="button" className="button button--secondary" disabled={busy} onClick={onMakeDefault}>
            Tornar padrão
          </button>
        )}
        <button type="button" className="button button--secondary" disabled={busy} onClick={onRemove}>
          Remover
        </button>
      </div>
    </li>
  );
}

export function PaymentMethodsPage() {
  const cards = usePaymentMethods();
  const remove = useRemoveCard();
  const makeDefault = useMakeDefaultCard();
  const [removing, setRemoving] = useState<SavedCard | null>(null);
  const busy = remove.isPending || makeDefault.isPending;

  return (
    <ListPage title={PAYMENT_METHODS_TITLE}>
      <div className="payment-methods__actions">
        <Link className="button button--primary" to={NEW_CARD_PATH}>
          Adicionar
        </Link>
      </div>
      {cards.isPending ? (
        <Skeletons
          label="Carregando meios de pagamento"
          count={SKELETON_CARDS}
          className="payment-methods__skeletons"
          itemClassName="payment-methods__skeleton skeleton-shimmer"
        />
      ) : cards.isError ? (
        <div className="payment-methods__error">
          <p>{LOAD_ERROR_TEXT}</p>
          <button type="button" className="button button--secondary" onClick={() => void cards.refetch()}>
            Tentar novamente
          </button>
        </div>
      ) : cards.data.length === 0 ? (
        <p className="list-page__empty">{NO_PAYMENT_METHODS_TEXT}</p>
      ) : (
        <ul className="payment-methods__list" aria-label="Cartões salvos">
          {cards.data.map((card) => (
            <CardItem
              key={card.id}
              card={card}
              busy={busy}
              onMakeDefault={() => makeDefault.mutate(card.id)}
              onRemove={() => setRemoving(card)}
            />
          ))}
        </ul>
      )}
      {removing !== null && (
        <ConfirmDialog
          title="Remover cartão"
          confirmLabel="Remover"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(removing.id, { onSettled: () => setRemoving(null) })}
          onCancel={() => setRemoving(null)}
        >
          <p>
            Remover o cartão {brandName(removing.brand)} final {removing.last_digits}? Ele não poderá mais ser usado em
            compras, recargas ou assinaturas.
          </p>
        </ConfirmDialog>
      )}
    </ListPage>
  );
}
