import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ToastProvider } from "@/components/toasts/toast-provider";
import { useSnackbar, useToast } from "@/components/toasts/use-toast";
import { SNACKBAR_DURATION_MS, TOAST_DURATION_MS } from "@/config/constants";

function FeedbackButtons() {
  const showToast = useToast();
  const showSnackbar = useSnackbar();
  return (
    <>
      <button type="button" onClick={() => showToast({ title: "Sucesso!", text: "Cadastro atualizado com sucesso" })}>
        Toast
      </button>
      <button type="button" onClick={() => showSnackbar("Operação realizada com sucesso")}>
        Snackbar
      </button>
    </>
  );
}

function renderFeedback() {
  render(
    <ToastProvider>
      <FeedbackButtons />
    </ToastProvider>,
  );
}

describe("toasts and snackbars", () => {
  it("follows the spec's durations", () => {
    expect(TOAST_DURATION_MS).toBe(4000);
    expect(SNACKBAR_DURATION_MS).toBe(2000);
  });

  it("shows a toast's title and text for 4000 ms", () => {
    vi.useFakeTimers();
    renderFeedback();

    fireEvent.click(screen.getByRole("button", { name: "Toast" }));
    expect(screen.getByText("Sucesso!")).toBeInTheDocument();
    expect(screen.getByText("Cadastro atualizado com sucesso")).toBeInTheDocument();

    act(() => {
      vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    });
    expect(screen.getByText("Sucesso!")).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText("Sucesso!")).not.toBeInTheDocument();
  });

  it("closes a toast on demand", () => {
    renderFeedback();

    fireEvent.click(screen.getByRole("button", { name: "Toast" }));
    fireEvent.click(screen.getByRole("button", { name: "Fechar" }));

    expect(screen.queryByText("Sucesso!")).not.toBeInTheDocument();
  });

  it("shows a snackbar for 2000 ms, restarting the time for a new message", () => {
    vi.useFakeTimers();
    renderFeedback();

    fireEvent.click(screen.getByRole("button", { name: "Snackbar" }));
    act(() => {
      vi.advanceTimersByTime(SNACKBAR_DURATION_MS - 500);
    });
    fireEvent.click(screen.getByRole("button", { name: "Snackbar" }));
    act(() => {
      vi.advanceTimersByTime(SNACKBAR_DURATION_MS - 1);
    });
    expect(screen.getByText("Operação realizada com sucesso")).toBeInTheDocument();

    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText("Operação realizada com sucesso")).not.toBeInTheDocument();
  });
});
