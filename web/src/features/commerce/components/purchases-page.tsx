// /homepage/minhas-compras (spec 002 section 2): the member's coupon purchases (paid lines
// of type 3 activities); each opens its proof of purchase.
import { useState } from "react";
import { Link } from "react-router";
import { Modal } from "@/components/modal";
import { useCouponPurchases } from "@/features/commerce/api/vouchers";
import { longDate } from "@/features/commerce/components/orders-page";
import { formatBrl } from "@/features/commerce/money";
import { orderPath } from "@/features/commerce/paths";
import { printLabel } from "@/features/commerce/print";
import { useSession } from "@/features/session";
import { formatDateTime } from "@/lib/dates";
import type { CouponPurchase } from "@/types/api";
import "./shop-screens.css";
import "./vouchers.css";

export const PURCHASES_TITLE = "Minhas compras";
export const NO_PURCHASES_TEXT = "Você ainda não possui compras feitas.";
export const PROOF_TITLE = "Comprovante de compra";
const SKELETON_CARDS = 5;

function ProofDialog({ purchase, onClose }: { purchase: CouponPurchase; onClose: () => void }) {
  const memberName = useSession()?.user.name ?? "";
  return (
    <Modal title={PROOF_TITLE} onDismiss={onClose}>
      <dl className="purchase-proof">
        <dt>Atividade</dt>
        <dd>{purchase.cupom.action.name}</dd>
        <dt>Participante</dt>
        <dd>{memberName}</dd>
        <dt>Pedido</dt>
        <dd>{purchase.code}</dd>
        <dt>Quantidade</dt>
        <dd>{purchase.quantity}</dd>
        <dt>Valor</dt>
        <dd>{formatBrl(purchase.price)}</dd>
        <dt>Data da compra</dt>
        <dd>{formatDateTime(purchase.createdAt)}</dd>
      </dl>
      <div className="voucher-dialog__actions">
        <button type="button" className="button button--primary" onClick={() => window.print()}>
          {printLabel()}
        </button>
        <Link className="button button--secondary" to={orderPath(purchase.order_id)}>
          Ver pedido
        </Link>
        <button type="button" className="button button--secondary" onClick={onClose}>
          Fechar
        </button>
      </div>
    </Modal>
  );
}

export function PurchasesPage() {
  const purchases = useCouponPurchases();
  const [open, setOpen] = useState<CouponPurchase | null>(null);
  return (
    <section className="shop-screen">
      <h1 className="shop-screen__title">{PURCHASES_TITLE}</h1>
      {purchases.isPending ? (
        <ul className="purchase-list" aria-busy="true" aria-label="Carregando compras">
          {Array.from({ length: SKELETON_CARDS }, (_, index) => (
            <li key={index} className="purchase-card purchase-card--skeleton" />
          ))}
        </ul>
      ) : purchases.isError ? (
        <div className="shop-screen__error">
          <p>Não foi possível carregar as suas compras.</p>
          <button type="button" className="button button--secondary" onClick={() => void purchases.refetch()}>
            Tentar novamente
          </button>
        </div>
      ) : purchases.data.length === 0 ? (
        <p className="shop-screen__empty">{NO_PURCHASES_TEXT}</p>
      ) : (
        <ul className="purchase-list">
          {purchases.data.map((purchase) => (
            <li key={purchase.id} className="purchase-card">
              <button type="button" className="purchase-card__button" onClick={() => setOpen(purchase)}>
                <span className="purchase-card__title">{purchase.cupom.action.name}</span>
                <span className="purchase-card__date">{longDate(purchase.createdAt)}</span>
                <span>
                  Quantidade: {purchase.quantity} · {formatBrl(purchase.price)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {open !== null && <ProofDialog purchase={open} onClose={() => setOpen(null)} />}
    </section>
  );
}
