import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { Modal } from "@/components/modal";

describe("Modal", () => {
  it("is a labelled modal dialog that takes the focus", () => {
    render(
      <Modal title="Título">
        <button type="button">Ok</button>
      </Modal>,
    );

    const dialog = screen.getByRole("dialog", { name: "Título" });
    expect(dialog).toHaveAttribute("aria-modal", "true");
    expect(screen.getByRole("button", { name: "Ok" })).toHaveFocus();
  });

  it("is dismissed by Escape or a click outside when it may be", () => {
    const onDismiss = vi.fn();
    render(
      <Modal title="Título" onDismiss={onDismiss}>
        <p>Conteúdo</p>
      </Modal>,
    );
    const dialog = screen.getByRole("dialog", { name: "Título" });

    fireEvent.keyDown(dialog, { key: "Escape" });
    fireEvent.click(dialog);
    fireEvent.click(dialog.parentElement as HTMLElement);

    expect(onDismiss).toHaveBeenCalledTimes(2);
  });
});
