import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { COPIED_MS, CopyButton } from "@/features/commerce/components/copy-button";

const CODE = "00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/abc5204000053039865802BR6304EEAB";

function setClipboard(clipboard: Partial<Clipboard> | undefined) {
  Object.defineProperty(window.navigator, "clipboard", { value: clipboard, configurable: true });
}

afterEach(() => {
  setClipboard(undefined);
  Reflect.deleteProperty(document, "execCommand");
});

describe("CopyButton", () => {
  it("copies the text and reads 'Copiado' for a moment", async () => {
    vi.useFakeTimers();
    const writeText = vi.fn(() => Promise.resolve());
    setClipboard({ writeText });
    render(<CopyButton text={CODE} label="Copiar código PIX" />);

    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Copiar código PIX" }));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(writeText).toHaveBeenCalledWith(CODE);
    expect(screen.getByRole("button", { name: "Copiado" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Copiado");

    await act(async () => {
      await vi.advanceTimersByTimeAsync(COPIED_MS);
    });
    expect(screen.getByRole("button", { name: "Copiar código PIX" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
  });

  it("falls back to the copy command when the Clipboard API refuses", async () => {
    setClipboard({ writeText: () => Promise.reject(new DOMException("denied", "NotAllowedError")) });
    let copiedText: string | undefined;
    const execCommand = vi.fn(() => {
      copiedText = (document.activeElement as HTMLTextAreaElement | null)?.value;
      return true;
    });
    Object.defineProperty(document, "execCommand", { value: execCommand, configurable: true });
    render(<CopyButton text={CODE} />);

    const button = screen.getByRole("button", { name: "Copiar código" });
    button.focus();
    fireEvent.click(button);

    expect(await screen.findByRole("button", { name: "Copiado" })).toHaveFocus();
    expect(execCommand).toHaveBeenCalledWith("copy");
    expect(copiedText).toBe(CODE);
    expect(document.querySelector("textarea")).toBeNull();
  });

  it("does not claim a copy that failed", async () => {
    setClipboard(undefined);
    const execCommand = vi.fn(() => false);
    Object.defineProperty(document, "execCommand", { value: execCommand, configurable: true });
    render(<CopyButton text={CODE} />);

    fireEvent.click(screen.getByRole("button", { name: "Copiar código" }));
    await act(async () => {
      await Promise.resolve();
    });

    expect(execCommand).toHaveBeenCalledWith("copy");
    expect(screen.getByRole("button", { name: "Copiar código" })).toBeInTheDocument();
    expect(screen.queryByText("Copiado")).not.toBeInTheDocument();
  });
});
