import { fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { getStoredSession } from "@/lib/session-store";
import { signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

describe("root gate", () => {
  it("shows visitors the landing page with the ways in", async () => {
    renderApp();

    expect(await screen.findByRole("heading", { level: 1, name: "Clube Filia Demo" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Clube Filia Demo" })).toHaveAttribute("src", "/brand/demo/logo.svg");
    expect(screen.getByRole("link", { name: "Entrar" })).toHaveAttribute("href", "/login");
    expect(screen.getByRole("link", { name: "Cadastre-se" })).toHaveAttribute("href", "/cadastrar");
  });

  it("tells a user without establishment, whose 'Tentar novamente' logs out", async () => {
    signIn({ establishment: null });
    const { page } = renderApp();

    expect(
      await screen.findByRole("heading", { name: "Nenhum estabelecimento está vinculado ao seu usuário." }),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Tentar novamente" }));

    expect(await screen.findByRole("link", { name: "Entrar" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/");
    expect(getStoredSession()).toBeNull();
  });

  it("sends an inactive user to /confimation", async () => {
    signIn({ active: 0 });
    const { page } = renderApp();

    expect(await screen.findByRole("heading", { name: "Sua conta ainda não foi ativada." })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/confimation");
    expect(screen.getByRole("link", { name: "Voltar ao início" })).toHaveAttribute("href", "/");
  });

  it.each([1, 2])("sends a user of type %i to /homepage", async (typeId) => {
    signIn({ type_id: typeId });
    const { page } = renderApp();

    expect(await screen.findByRole("heading", { name: "Início" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/homepage");
  });

  it("sends an unknown account type to /not-autorized", async () => {
    signIn({ type_id: 9 });
    const { page } = renderApp();

    expect(await screen.findByRole("heading", { name: "Erro 401!" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/not-autorized");
  });
});

describe("member area", () => {
  it("sends visitors back to /", async () => {
    const { page } = renderApp({ path: "/homepage" });

    expect(await screen.findByRole("link", { name: "Entrar" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/");
  });

  it("has a top bar with the logo linking home and 'Sair', which logs out", async () => {
    signIn();
    const { page } = renderApp({ path: "/homepage" });

    const logoLink = await screen.findByRole("link", { name: "Clube Filia Demo" });
    expect(logoLink).toHaveAttribute("href", "/homepage");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole("link", { name: "Sair" }));

    expect(await screen.findByRole("link", { name: "Entrar" })).toBeInTheDocument();
    expect(page.location.pathname).toBe("/");
    expect(getStoredSession()).toBeNull();
  });

  it("blocks a deleted user; 'Fale conosco' logs out and opens /suporte", async () => {
    signIn({ deletedAt: "2026-11-01T00:00:00Z" });
    const { page } = renderApp({ path: "/homepage" });

    const modal = await screen.findByRole("dialog", { name: "O seu acesso está supenso..." });
    fireEvent.keyDown(modal, { key: "Escape" });
    expect(modal).toBeInTheDocument();

    fireEvent.click(screen.getByRole("link", { name: "Fale conosco" }));

    await waitFor(() => expect(page.location.pathname).toBe("/suporte"));
    expect(getStoredSession()).toBeNull();
    expect(screen.queryByRole("dialog", { name: "O seu acesso está supenso..." })).not.toBeInTheDocument();
  });
});

describe("other pages", () => {
  it("/not-autorized shows the 401 texts", async () => {
    renderApp({ path: "/not-autorized" });

    expect(await screen.findByRole("heading", { name: "Erro 401!" })).toBeInTheDocument();
    expect(screen.getByText("Você não possui autorização para acessar esta página.")).toBeInTheDocument();
  });

  it("shows an unknown path of the member area as not found", async () => {
    signIn();
    renderApp({ path: "/homepage/nada-aqui" });

    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
  });

  it("shows an unknown path as not found", async () => {
    renderApp({ path: "/nada-aqui" });

    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voltar ao início" })).toHaveAttribute("href", "/");
  });
});
