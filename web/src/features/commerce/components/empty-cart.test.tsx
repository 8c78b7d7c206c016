import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { EmptyCart } from "@/features/commerce/components/empty-cart";

describe("EmptyCart", () => {
  it("says the cart is empty under the cart's main heading and leads to the home page", () => {
    render(
      <MemoryRouter>
        <EmptyCart title="Meu carrinho" />
      </MemoryRouter>,
    );

    expect(screen.getByRole("heading", { level: 1, name: "Meu carrinho" })).toBeInTheDocument();
    expect(screen.getByText("Você ainda não possui itens no seu carrinho.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voltar para a página inicial" })).toHaveAttribute("href", "/homepage");
  });
});
