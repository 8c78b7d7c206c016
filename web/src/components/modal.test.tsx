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

describe("Modal's keyboard", () => {
  function Opener({ open }: { open: boolean }) {
    return (
      <>
        <button type="button">Abrir</button>
        {open && (
          <Modal title="Título">
            <button type="button">Primeiro</button>
            <button type="button">Último</button>
          </Modal>
        )}
      </>
    );
  }

  it("cycles Tab and Shift+Tab inside, also from the dialog itself", () => {
    render(<Opener open />);
    const dialog = screen.getByRole("dialog", { name: "Título" });
    const first = screen.getByRole("button", { name: "Primeiro" });
    const last = screen.getByRole("button", { name: "Último" });

    last.focus();
    fireEvent.keyDown(last, { key: "Tab" });
    expect(first).toHaveFocus();
    fireEvent.keyDown(first, { key: "Tab", shiftKey: true });
    expect(last).toHaveFocus();
    dialog.focus();
    fireEvent.keyDown(dialog, { key: "Tab", shiftKey: true });
    expect(last).toHaveFocus();
  });

  it("takes the focus, and gives it back to the opener when it closes", () => {
    const { rerender } = render(<Opener open={false} />);
    const opener = screen.getByRole("button", { name: "Abrir" });
    opener.focus();
    rerender(<Opener open />);
    expect(screen.getByRole("button", { name: "Primeiro" })).toHaveFocus();

    rerender(<Opener open={false} />);
    expect(opener).toHaveFocus();
  });

  it("closes on Escape without the page behind hearing it", () => {
    const onDismiss = vi.fn();
    const onPageKey = vi.fn();
    render(
      <div onKeyDown={onPageKey}>
        <Modal title="Título" onDismiss={onDismiss}>
          <button type="button">Ok</button>
        </Modal>
      </div>,
    );

    fireEvent.keyDown(screen.getByRole("button", { name: "Ok" }), { key: "Escape" });

    expect(onDismiss).toHaveBeenCalledTimes(1);
    expect(onPageKey).not.toHaveBeenCalled();
  });
});
