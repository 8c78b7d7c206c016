import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { TotalsBox, type CartTotals } from "@/features/commerce/components/totals-box";
import { StationContext } from "@/features/stations";
import { buildStation } from "@/testing/fixtures";
import type { Station } from "@/types/api";

const TOTALS: CartTotals = {
  deliveryCents: 1500,
  productsCents: 123456,
  subtotalCents: 124956,
  cashbackCents: 2000,
};

function renderTotals(totals: CartTotals = TOTALS, station: Station = buildStation()) {
  render(
    <StationContext.Provider value={station}>
      <TotalsBox totals={totals}>
        <p>Sua reserva expira em 15:00</p>
      </TotalsBox>
    </StationContext.Provider>,
  );
}

/** The totals as label -> amount, in the order shown. */
function rows(): Array<[string, string]> {
  const terms = screen.getAllByRole("term");
  const definitions = screen.getAllByRole("definition");
  return terms.map((term, index) => [term.textContent ?? "", definitions[index]?.textContent ?? ""]);
}

describe("TotalsBox", () => {
  it("shows Entrega, Produtos, Subtotal and Cashback as the server computed them", () => {
    renderTotals();

    expect(screen.getByRole("region", { name: "Resumo do pedido" })).toBeInTheDocument();
    expect(rows()).toEqual([
      ["Entrega", "R$ 15,00"],
      ["Produtos", "R$ 1.234,56"],
      ["Subtotal", "R$ 1.249,56"],
      ["Cashback", "20,00 Pontos"],
    ]);
    expect(screen.getByText("Sua reserva expira em 15:00")).toBeInTheDocument();
  });

  it("shows what the server says even where it is not the sum of the lines above", () => {
    renderTotals({ deliveryCents: 0, productsCents: 5000, subtotalCents: 4000, cashbackCents: 0 });

    expect(rows()).toContainEqual(["Subtotal", "R$ 40,00"]);
  });

  it("shows a discount only when there is one", () => {
    renderTotals({ ...TOTALS, discountCents: 2500, subtotalCents: 122456 });

    expect(rows()).toContainEqual(["Desconto", "-R$ 25,00"]);
  });

  it("shows the cashback in the station's currency", () => {
    renderTotals(
      TOTALS,
      buildStation({ currency_multiplier: 10, currency_name: "Fichas", currency_name_position: "before_currency" }),
    );

    expect(rows()).toContainEqual(["Cashback", "Fichas 200,00"]);
  });
});
