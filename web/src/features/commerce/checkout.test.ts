import { describe, expect, it } from "vitest";
import {
  asksPaymentMethod,
  groupByAction,
  orderCart,
  paymentTitle,
  totalsWithDelivery,
} from "@/features/commerce/checkout";
import { buildCartLine, buildProduct, buildShopAction, buildTotals } from "@/features/commerce/testing/commerce-fixtures";

describe("totalsWithDelivery", () => {
  it("adds the delivery to the total and lets the wallet pay what it can of it", () => {
    const totals = totalsWithDelivery(buildTotals({ total_final_value: 10000 }), 1500, 11000, false);
    expect(totals).toMatchObject({ delivery_tax_value: 1500, total_final_value: 11500, wallet_value: 11000, credit_card_value: 500 });
  });

  it("keeps the wallet out for payment-only", () => {
    const totals = totalsWithDelivery(buildTotals({ total_final_value: 10000 }), 0, 50000, true);
    expect(totals).toMatchObject({ wallet_value: 0, credit_card_value: 10000 });
  });
});

describe("paymentTitle and asksPaymentMethod", () => {
  it.each([
    [{ credit_card_value: 0 }, 20000, false, "Saldo", false],
    [{ credit_card_value: 500 }, 20000, true, "Saldo", true],
    [{ credit_card_value: 500 }, 100, false, "Saldo e cartão", true],
    [{ credit_card_value: 500 }, 0, false, "Forma da pagamento", true],
  ])("%o with balance %i, payment-only %s: '%s'", (totals, balance, paymentOnly, title, asks) => {
    expect(paymentTitle(buildTotals(totals), balance, paymentOnly)).toBe(title);
    expect(asksPaymentMethod(buildTotals(totals), paymentOnly)).toBe(asks);
  });
});

describe("orderCart", () => {
  it("sends each activity's quantities and, for home delivery, the address as digits and trimmed text", () => {
    const digital = buildShopAction({ id: 21, digital_product: true });
    const groups = groupByAction([
      buildCartLine(),
      buildCartLine({ product: buildProduct({ id: 4 }), quantity: 1 }),
      buildCartLine({ product: buildProduct({ id: 8, action: digital }), quantity: 1 }),
    ]);
    const cart = orderCart(groups, {
      20: { deliveryLocation: "31", zipcode: "01.310-100", address: " Rua Augusta ", number: "100", reference: "" },
    });
    expect(cart).toEqual([
      {
        action_id: 20,
        "product-3": 2,
        "product-4": 1,
        deliveryLocation: 31,
        zipcode: "01310100",
        address: "Rua Augusta",
        number: "100",
        reference: null,
      },
      { action_id: 21, "product-8": 1 },
    ]);
  });
});
