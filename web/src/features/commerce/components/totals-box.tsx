// The cart's totals (spec 002 section 2: Entrega, Produtos, Subtotal and Cashback), exactly
// as the server computed them (spec 002 section 9): nothing is added up here. Money is in
// reais; the cashback is what the wallet receives, in the station's points.
import type { ReactNode } from "react";
import { formatBrl, formatPoints } from "@/features/commerce/money";
import { useStation } from "@/features/stations";
import "./commerce.css";

/** The server's totals, in centavos (the cashback in hundredths of a point, the same unit). */
export interface CartTotals {
  deliveryCents: number;
  productsCents: number;
  /** The coupon's and the delivery discounts; shown only when there is one. */
  discountCents?: number;
  subtotalCents: number;
  cashbackCents: number;
}

interface TotalsBoxProps {
  totals: CartTotals;
  /** Shown under the totals (the reservation countdown, say). */
  children?: ReactNode;
}

export function TotalsBox({ totals, children }: TotalsBoxProps) {
  const station = useStation();
  const discount = totals.discountCents ?? 0;
  return (
    <section className="cart-totals-box" aria-label="Resumo do pedido">
      <dl className="cart-totals">
        <dt>Entrega</dt>
        <dd>{formatBrl(totals.deliveryCents)}</dd>
        <dt>Produtos</dt>
        <dd>{formatBrl(totals.productsCents)}</dd>
        {discount > 0 && (
          <>
            <dt>Desconto</dt>
            <dd>{formatBrl(-discount)}</dd>
          </>
        )}
        <dt className="cart-totals__subtotal">Subtotal</dt>
        <dd className="cart-totals__subtotal">{formatBrl(totals.subtotalCents)}</dd>
        <dt>Cashback</dt>
        <dd className="cart-totals__cashback">{formatPoints(totals.cashbackCents, station)}</dd>
      </dl>
      {children}
    </section>
  );
}
