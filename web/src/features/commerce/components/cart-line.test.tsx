import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { CartLine, unitPriceCents, type CartLineProduct } from "@/features/commerce/components/cart-line";

const PRODUCT: CartLineProduct = {
  id: 3,
  name: "Camiseta do clube",
  image: "/api/media/demo/camiseta.png",
  value: 7990,
  discount_value: 0,
};

function renderLine(props: Partial<Parameters<typeof CartLine>[0]> = {}) {
  const onQuantityChange = vi.fn();
  const onRemove = vi.fn();
  render(
    <ul>
      <CartLine
        product={PRODUCT}
        quantity={2}
        maxQuantity={5}
        onQuantityChange={onQuantityChange}
        onRemove={onRemove}
        {...props}
      />
    </ul>,
  );
  return {
    onQuantityChange,
    onRemove,
    decrease: screen.getByRole("button", { name: "Diminuir a quantidade de Camiseta do clube" }),
    increase: screen.getByRole("button", { name: "Aumentar a quantidade de Camiseta do clube" }),
    remove: screen.getByRole("button", { name: "Excluir Camiseta do clube" }),
    stepper: screen.getByRole("group", { name: "Quantidade de Camiseta do clube" }),
  };
}

describe("unitPriceCents", () => {
  it("takes the discount off only when there is one", () => {
    expect(unitPriceCents({ value: 7990, discount_value: 0 })).toBe(7990);
    expect(unitPriceCents({ value: 7990, discount_value: 1000 })).toBe(6990);
  });
});

describe("CartLine", () => {
  it("shows the product, its price and the quantity", () => {
    const { stepper } = renderLine();

    expect(screen.getByRole("heading", { name: "Camiseta do clube" })).toBeInTheDocument();
    expect(screen.getByText("R$ 79,90")).toBeInTheDocument();
    expect(within(stepper).getByRole("status")).toHaveTextContent("2");
  });

  it("shows the price before the discount struck through, and the price paid", () => {
    renderLine({ product: { ...PRODUCT, value: 123456, discount_value: 23456 } });

    expect(screen.getByText("R$ 1.234,56").closest("s")).not.toBeNull();
    expect(screen.getByText("R$ 1.000,00")).toHaveClass("cart-line__price");
  });

  it("steps the quantity up and down", () => {
    const { decrease, increase, onQuantityChange } = renderLine();

    fireEvent.click(increase);
    expect(onQuantityChange).toHaveBeenLastCalledWith(3);
    fireEvent.click(decrease);
    expect(onQuantityChange).toHaveBeenLastCalledWith(1);
  });

  it("cannot go below 1", () => {
    const { decrease, onQuantityChange } = renderLine({ quantity: 1 });

    expect(decrease).toBeDisabled();
    fireEvent.click(decrease);
    expect(onQuantityChange).not.toHaveBeenCalled();
  });

  it("cannot go above the limit the server gives", () => {
    const { increase, decrease, onQuantityChange } = renderLine({ quantity: 5, maxQuantity: 5 });

    expect(increase).toBeDisabled();
    fireEvent.click(increase);
    expect(onQuantityChange).not.toHaveBeenCalled();
    expect(decrease).toBeEnabled();
  });

  it("only steps down when the stock fell under the quantity", () => {
    const { increase, decrease, onQuantityChange } = renderLine({ quantity: 4, maxQuantity: 2 });

    expect(increase).toBeDisabled();
    fireEvent.click(decrease);
    expect(onQuantityChange).toHaveBeenLastCalledWith(3);
  });

  it("deletes the line", () => {
    const { remove, onRemove } = renderLine();

    fireEvent.click(remove);
    expect(onRemove).toHaveBeenCalledTimes(1);
  });

  it("waits while a change of the line is on its way", () => {
    const { increase, decrease, remove } = renderLine({ busy: true });

    expect(increase).toBeDisabled();
    expect(decrease).toBeDisabled();
    expect(remove).toBeDisabled();
  });
});
