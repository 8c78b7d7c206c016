import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ConfirmDialog } from "@/components/confirm-dialog";

const answers = () => within(screen.getByRole("dialog", { name: "Apagar?" })).getAllByRole("button").map((b) => b.textContent);

describe("ConfirmDialog", () => {
  it("offers the action, then 'Voltar', which Escape answers too", () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConfirmDialog title="Apagar?" confirmLabel="Apagar" onConfirm={onConfirm} onCancel={onCancel}>
        <p>Não há volta.</p>
      </ConfirmDialog>,
    );

    expect(answers()).toEqual(["Apagar", "Voltar"]);
    expect(screen.getByText("Não há volta.")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Apagar" }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it("puts the spec's cancel answer first when asked, and only informs without an action", () => {
    const { rerender } = render(
      <ConfirmDialog title="Apagar?" confirmLabel="Sim" onConfirm={vi.fn()} cancelLabel="Cancelar" cancelFirst onCancel={vi.fn()} />,
    );
    expect(answers()).toEqual(["Cancelar", "Sim"]);

    rerender(<ConfirmDialog title="Apagar?" onCancel={vi.fn()} />);
    expect(answers()).toEqual(["Voltar"]);
  });

  it("waits while the action is on its way: no answer, no Escape", () => {
    const onCancel = vi.fn();
    render(<ConfirmDialog title="Apagar?" confirmLabel="Apagar" onConfirm={vi.fn()} onCancel={onCancel} busy />);

    expect(screen.getByRole("button", { name: "Apagar" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Apagar" })).toHaveAttribute("aria-busy", "true");
    expect(screen.getByRole("button", { name: "Voltar" })).toBeDisabled();
    fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    expect(onCancel).not.toHaveBeenCalled();
  });
});
