import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppCrashPage, ErrorBoundary } from "@/components/error-boundary";

function Broken(): never {
  throw new Error("chunk failed to load");
}

describe("ErrorBoundary", () => {
  afterEach(() => vi.restoreAllMocks());

  it("shows its fallback instead of a part that throws, and keeps the rest", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    render(
      <main>
        <h1>Página</h1>
        <ErrorBoundary fallback={<p>Sem destaques</p>}>
          <Broken />
        </ErrorBoundary>
      </main>,
    );
    expect(screen.getByRole("heading", { name: "Página" })).toBeInTheDocument();
    expect(screen.getByText("Sem destaques")).toBeInTheDocument();
  });

  it("renders its children when nothing fails", () => {
    render(
      <ErrorBoundary fallback={<p>Sem destaques</p>}>
        <p>Destaques</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText("Destaques")).toBeInTheDocument();
    expect(screen.queryByText("Sem destaques")).not.toBeInTheDocument();
  });

  it("the app's crash page offers a reload", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    render(
      <ErrorBoundary fallback={<AppCrashPage />}>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole("heading", { name: "Erro" })).toBeInTheDocument();
    expect(screen.getByText("Erro interno no servidor")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Recarregar a página" })).toBeInTheDocument();
  });
});
