import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { CouponDialog } from "@/features/commerce/components/coupon-dialog";

function renderDialog(props: Partial<Parameters<typeof CouponDialog>[0]> = {}) {
  const onApply = vi.fn();
  const onClose = vi.fn();
  const view = render(<CouponDialog onApply={onApply} onClose={onClose} applying={false} {...props} />);
  return { onApply, onClose, view, field: screen.getByRole("textbox", { name: "Código do cupom" }) };
}

describe("CouponDialog", () => {
  it("is a dialog titled 'Aplicar cupom de desconto' with the focus in its field", () => {
    const { field } = renderDialog();

    expect(screen.getByRole("dialog", { name: "Aplicar cupom de desconto" })).toBeInTheDocument();
    expect(field).toHaveFocus();
  });

  it("applies the trimmed code", () => {
    const { field, onApply } = renderDialog();

    fireEvent.change(field, { target: { value: "  BEMVINDO10 " } });
    fireEvent.click(screen.getByRole("button", { name: "Aplicar cupom" }));

    expect(onApply).toHaveBeenCalledWith("BEMVINDO10");
  });

  it("asks for a code rather than applying an empty one", () => {
    const { field, onApply } = renderDialog();

    fireEvent.change(field, { target: { value: "   " } });
    fireEvent.click(screen.getByRole("button", { name: "Aplicar cupom" }));

    expect(onApply).not.toHaveBeenCalled();
    expect(field).toHaveAccessibleDescription("Esse campo é obrigatório");
  });

  it("reads 'Aplicando' and applies nothing more while the server answers", () => {
    const { field, onApply } = renderDialog({ applying: true });

    fireEvent.change(field, { target: { value: "BEMVINDO10" } });
    const button = screen.getByRole("button", { name: "Aplicando" });
    expect(button).toHaveAttribute("aria-busy", "true");
    fireEvent.click(button);

    expect(onApply).not.toHaveBeenCalled();
    expect(screen.queryByRole("button", { name: "Aplicar cupom" })).not.toBeInTheDocument();
  });

  it("shows why the server refused the code under the field until the code changes", () => {
    const { field, onApply, onClose, view } = renderDialog({ applying: false });
    fireEvent.change(field, { target: { value: "ESGOTADO" } });
    fireEvent.click(screen.getByRole("button", { name: "Aplicar cupom" }));
    view.rerender(
      <CouponDialog onApply={onApply} onClose={onClose} applying={false} error="Este cupom atingiu o limite de usos." />,
    );

    expect(field).toHaveAccessibleDescription("Este cupom atingiu o limite de usos.");
    expect(field).toHaveAttribute("aria-invalid", "true");

    fireEvent.change(field, { target: { value: "ESGOTADO2" } });
    expect(field).not.toHaveAttribute("aria-invalid");
    expect(field).toHaveAccessibleDescription("");
  });

  it("closes on 'Cancelar' or Escape, but not while applying", () => {
    const { onClose, view } = renderDialog();
    fireEvent.click(screen.getByRole("button", { name: "Cancelar" }));
    fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    expect(onClose).toHaveBeenCalledTimes(2);

    view.rerender(<CouponDialog onApply={vi.fn()} onClose={onClose} applying />);
    fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    expect(screen.getByRole("button", { name: "Cancelar" })).toBeDisabled();
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
