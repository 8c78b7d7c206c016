import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { PaymentFailedDialog } from "@/features/commerce/components/payment-failed-dialog";

function renderDialog(messages: string[]) {
  const onRetry = vi.fn();
  const onCancel = vi.fn();
  render(<PaymentFailedDialog messages={messages} onRetry={onRetry} onCancel={onCancel} />);
  return { onRetry, onCancel, dialog: screen.getByRole("dialog", { name: "Pagamento não realizado" }) };
}

describe("PaymentFailedDialog", () => {
  it("shows the catalogue's text with the server's reason", () => {
    const { dialog } = renderDialog(["Cartão recusado pelo emissor."]);

    expect(
      within(dialog).getByText(
        "Não foi possível completar sua transação. Por favor, tente novamente. Motivo: Cartão recusado pelo emissor.",
      ),
    ).toBeInTheDocument();
  });

  it("shows each message of a list on its own", () => {
    const { dialog } = renderDialog(["Cartão recusado pelo emissor.", "Saldo insuficiente."]);

    expect(
      within(dialog).getByText("Não foi possível completar sua transação. Por favor, tente novamente."),
    ).toBeInTheDocument();
    const reasons = within(dialog).getAllByRole("listitem");
    expect(reasons.map((reason) => reason.textContent)).toEqual([
      "Motivo: Cartão recusado pelo emissor.",
      "Motivo: Saldo insuficiente.",
    ]);
  });

  it("takes the focus on 'Sim', which offers another payment method", () => {
    const { onRetry, onCancel } = renderDialog(["Cartão recusado pelo emissor."]);

    const yes = screen.getByRole("button", { name: "Sim" });
    expect(yes).toHaveFocus();
    fireEvent.click(yes);
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
  });

  it("closes on 'Cancelar' or Escape", () => {
    const { onRetry, onCancel, dialog } = renderDialog(["Cartão recusado pelo emissor."]);

    fireEvent.click(screen.getByRole("button", { name: "Cancelar" }));
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onRetry).not.toHaveBeenCalled();
  });
});
