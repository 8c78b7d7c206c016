import { useMutation } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { QueryProvider } from "@/app/query-provider";
import { ToastProvider } from "@/components/toasts/toast-provider";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import { jsonResponse } from "@/testing/fixtures";

function SendButton({ ownErrorText = false }: { ownErrorText?: boolean }) {
  const mutation = useMutation({
    mutationFn: () => api.post("/auth/signup", {}),
    meta: ownErrorText ? OWN_ERROR_TEXT : undefined,
  });
  return (
    <button type="button" onClick={() => mutation.mutate()}>
      Enviar
    </button>
  );
}

describe("QueryProvider", () => {
  it("shows the error toast when a mutation fails", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(jsonResponse({ messages: ["E-mail já cadastrado"] }, 422))));
    render(
      <ToastProvider>
        <QueryProvider>
          <SendButton />
        </QueryProvider>
      </ToastProvider>,
    );

    fireEvent.click(screen.getByRole("button", { name: "Enviar" }));

    const notifications = screen.getByRole("region", { name: "Notificações" });
    expect(await within(notifications).findByText("E-mail já cadastrado")).toBeInTheDocument();
    expect(within(notifications).getByText("Erro")).toBeInTheDocument();
  });

  it("leaves the toast to a mutation that shows its own error text", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(jsonResponse({ messages: ["Cupom não encontrado."] }, 422))));
    render(
      <ToastProvider>
        <QueryProvider>
          <SendButton ownErrorText />
        </QueryProvider>
      </ToastProvider>,
    );

    fireEvent.click(screen.getByRole("button", { name: "Enviar" }));

    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(within(screen.getByRole("region", { name: "Notificações" })).queryByText("Erro")).not.toBeInTheDocument();
  });
});
