import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import {
  DELIVERY_ORDER_SENT_TEXT,
  PlacedStep,
  VOUCHERS_OBTAINED_TEXT,
  placedOrderText,
} from "@/features/commerce/components/placed-step";
import { PAYING_TEXT, ReviewStep, SIGNING_UP_TEXT, placeOrderLabel } from "@/features/commerce/components/review-step";
import type { CartGroup } from "@/features/commerce/checkout";
import { buildCartLine, buildOrder, buildShopAction, buildTotals } from "@/features/commerce/testing/commerce-fixtures";
import type { PaymentType } from "@/features/commerce/payment-form";
import { buildStation } from "@/testing/fixtures";
import { TestProviders } from "@/testing/test-providers";

// The cart stands in for type 3's 'Pagar' dialog: its place-order button takes the dialog's
// loading labels, and its last step the spec's success texts (docs/decisions.md).

function group(typeId: number, id = typeId): CartGroup {
  const action = buildShopAction({ id, type_id: typeId, digital_product: true });
  return { action, lines: [buildCartLine({ product: { ...buildCartLine().product, action } })] };
}

function renderReview(groups: CartGroup[], method: PaymentType | null, placing: boolean) {
  render(
    <MemoryRouter>
      <form>
        <ReviewStep
          groups={groups}
          choices={{}}
          totals={buildTotals()}
          method={method}
          coupon={null}
          onOpenCoupon={() => undefined}
          onRemoveCoupon={() => undefined}
          placing={placing}
          onBack={() => undefined}
        />
      </form>
    </MemoryRouter>,
  );
}

describe("the place-order button", () => {
  it("reads 'Pagando' and is disabled while an order is paid by card or wallet", () => {
    renderReview([group(3)], "credit_card", true);

    const button = screen.getByRole("button", { name: PAYING_TEXT });
    expect(button).toBeDisabled();
    expect(PAYING_TEXT).toBe("Pagando");
  });

  it("reads 'Inscrevendo...' while a cart of presential courses only is placed", () => {
    renderReview([group(4), group(4, 44)], null, true);

    expect(screen.getByRole("button", { name: "Inscrevendo..." })).toBeDisabled();
    expect(SIGNING_UP_TEXT).toBe("Inscrevendo...");
  });

  it("pays, not signs up, a cart mixing a course with other items", () => {
    expect(placeOrderLabel([group(4), group(3)], "credit_card", true)).toBe("Pagando");
  });

  it("keeps its label before submitting and for PIX, which only generates a code", () => {
    renderReview([group(4)], "credit_card", false);
    expect(screen.getByRole("button", { name: "Efetuar pagamento" })).toBeEnabled();
    expect(placeOrderLabel([group(3)], "pix", true)).toBe("Gerar código para pagamento");
    expect(placeOrderLabel([group(3)], "pix", false)).toBe("Gerar código para pagamento");
  });
});

describe("the placed order's success text", () => {
  const placed = (order = buildOrder()) =>
    render(
      <TestProviders station={buildStation()}>
        <MemoryRouter>
          <PlacedStep
            order={order}
            verifying={false}
            onVerify={() => undefined}
            onPixExpired={() => undefined}
            sandbox={false}
            simulating={false}
            onSimulate={() => undefined}
          />
        </MemoryRouter>
      </TestProviders>,
    );

  it("says 'Pedido enviado com sucesso.' for a delivery order (type 14)", () => {
    placed(buildOrder({ action: { id: 20, name: "Kit do associado", type_id: 14, sell_vouchers: false, familiarVoucher: false } }));

    expect(screen.getByText("Pedido enviado com sucesso.")).toBeInTheDocument();
    expect(DELIVERY_ORDER_SENT_TEXT).toBe("Pedido enviado com sucesso.");
  });

  it("says 'Sucesso, aproveite.' once vouchers are paid for", () => {
    placed(
      buildOrder({
        status_code: "paid",
        action: { id: 21, name: "Cupom do cinema", type_id: 3, sell_vouchers: true, familiarVoucher: false },
      }),
    );

    expect(screen.getByText("Sucesso, aproveite.")).toBeInTheDocument();
    expect(VOUCHERS_OBTAINED_TEXT).toBe("Sucesso, aproveite.");
  });

  it("says neither for vouchers not paid yet, nor for another order", () => {
    const vouchers = { id: 21, name: "Cupom do cinema", type_id: 3, sell_vouchers: true, familiarVoucher: false };
    expect(placedOrderText(buildOrder({ status_code: "pending", action: vouchers }))).toBeNull();
    expect(
      placedOrderText(buildOrder({ action: { ...vouchers, type_id: 4, sell_vouchers: false }, create_vouchers: false })),
    ).toBeNull();
  });
});
