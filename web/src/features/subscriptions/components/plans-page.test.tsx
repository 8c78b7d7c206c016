import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  ACCOUNT,
  CANCEL,
  PLANS,
  buildPlan,
  buildSubscription,
  planCall,
} from "@/features/subscriptions/testing/subscription-fixtures";
import { buildStation, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const BALANCE = "GET /api/users-points/1";

const SEVEN_BENEFITS = Array.from({ length: 7 }, (_, index) => ({ id: index + 1, benefit: `Benefício ${index + 1}` }));

const PLAN_LIST = [
  buildPlan({ id: 3, name: "Empresas", amount: null }),
  buildPlan({ id: 2, name: "Premium", amount: 5990, discount: 1000, is_highlighted: true, benefits: SEVEN_BENEFITS }),
  buildPlan({ id: 1, name: "Essencial", amount: 2990 }),
  buildPlan({ id: 4, name: "Antigo", amount: 990, deletedAt: "2026-10-01T00:00:00Z" }),
];

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubPlans(handlers: Record<string, ApiHandler> = {}, subscription: unknown = null) {
  return stubApi({
    [BALANCE]: () => jsonResponse(buildWalletBalance()),
    [PLANS]: () => jsonResponse(PLAN_LIST),
    [ACCOUNT]: () => jsonResponse({ id: 1, subscription }),
    ...handlers,
  });
}

const cardOf = (name: string) => screen.getByRole("article", { name });

describe("plans page", () => {
  it("shows placeholders, then the live plans by price with their texts and buttons for a member without a plan", async () => {
    stubPlans();
    renderApp({ path: "/homepage/planos" });
    expect(await screen.findByRole("status", { name: "Carregando planos" })).toHaveAttribute("aria-busy", "true");

    await screen.findByRole("article", { name: "Essencial" });
    expect(screen.getAllByRole("article").map((card) => within(card).getByRole("heading").textContent)).toEqual([
      "Essencial",
      "Premium",
      "Empresas",
    ]);
    const premium = cardOf("Premium");
    expect(within(premium).getByText("Mais popular")).toBeInTheDocument();
    expect(within(premium).getByText("R$ 49,90/mês")).toBeInTheDocument();
    expect(within(premium).getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "Benefício 1",
      "Benefício 2",
      "Benefício 3",
      "Benefício 4",
      "Benefício 5",
      "E muito mais!",
    ]);
    expect(within(cardOf("Essencial")).queryByText("Mais popular")).not.toBeInTheDocument();
    expect(within(cardOf("Essencial")).queryByText("E muito mais!")).not.toBeInTheDocument();
    expect(within(cardOf("Empresas")).getByText("A negociar")).toBeInTheDocument();
    expect(within(cardOf("Empresas")).getByRole("link", { name: /Entrar em contato/ })).toHaveAttribute(
      "href",
      "/homepage/planos/sobconsulta",
    );
    expect(within(cardOf("Essencial")).getByRole("link", { name: /Assinar/ })).toHaveAttribute("href", "/homepage/planos/1/comprar");
  });

  it("disables the current plan's button and offers upgrade or downgrade for the others", async () => {
    stubPlans({}, buildSubscription({ plan: PLAN_LIST[1] }));
    renderApp({ path: "/homepage/planos" });

    const current = await screen.findByRole("button", { name: "Este é seu plano atual" });
    expect(current).toBeDisabled();
    expect(within(cardOf("Premium")).getByRole("button")).toBe(current);
    expect(within(cardOf("Essencial")).getByRole("link", { name: /Fazer downgrade/ })).toHaveAttribute(
      "href",
      "/homepage/planos/1/mudar",
    );
    expect(screen.getByRole("heading", { name: "Seu plano: Premium" })).toBeInTheDocument();
    expect(screen.getByText("Próxima renovação em 29/12/2026.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Alterar cartão" })).toHaveAttribute("href", "/homepage/planos/editar-pagamento");
  });

  it("says when the station has no plans", async () => {
    stubPlans({ [PLANS]: () => jsonResponse([]) });
    renderApp({ path: "/homepage/planos" });
    expect(await screen.findByText("Não há planos disponíveis.")).toBeInTheDocument();
  });

  it("cancels the plan with the reason chosen", async () => {
    let subscription = buildSubscription({ plan: PLAN_LIST[1] });
    const api = stubPlans({
      [ACCOUNT]: () => jsonResponse({ id: 1, subscription }),
      [CANCEL]: () => {
        subscription = { ...subscription, cancel_at_period_end: true };
        return jsonResponse(subscription);
      },
    });
    renderApp({ path: "/homepage/planos" });

    fireEvent.click(await screen.findByRole("button", { name: "Cancelar plano" }));
    const dialog = screen.getByRole("dialog", { name: "Cancelar plano" });
    expect(within(dialog).getAllByRole("radio").map((radio) => radio.getAttribute("value"))).toEqual([
      "Prefiro não mencionar",
      "Não acho um bom custo-benefício",
      "Não utilizo mais o produto",
      "Outro",
    ]);
    fireEvent.click(within(dialog).getByRole("radio", { name: "Não utilizo mais o produto" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmar cancelamento" }));

    expect(await screen.findByText("Operação realizada com sucesso")).toBeInTheDocument();
    expect(api.bodySentTo(CANCEL)).toEqual({ cancelReason: "Não utilizo mais o produto" });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByText("Cancelado. Ativo até 29/12/2026.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancelar plano" })).not.toBeInTheDocument();
  });

  it("tells a refused cancellation's first message", async () => {
    stubPlans(
      { [CANCEL]: () => jsonResponse({ messages: ["Motivo inválido", "outro"] }, 422) },
      buildSubscription({ plan: PLAN_LIST[1] }),
    );
    renderApp({ path: "/homepage/planos" });
    fireEvent.click(await screen.findByRole("button", { name: "Cancelar plano" }));
    fireEvent.click(screen.getByRole("button", { name: "Confirmar cancelamento" }));
    expect(await screen.findByText("Erro: Motivo inválido")).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Cancelar plano" })).toBeInTheDocument();
  });
});

describe("public plan page", () => {
  it("shows the plan to a visitor with a way to sign up", async () => {
    window.localStorage.clear();
    window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
    stubApi({ [planCall(2)]: () => jsonResponse(PLAN_LIST[1]) });
    const { page } = renderApp({ path: "/planos/2" });

    const card = await screen.findByRole("article", { name: "Premium" });
    expect(within(card).getByRole("heading", { level: 1, name: "Premium" })).toBeInTheDocument();
    expect(within(card).getByText("R$ 49,90/mês")).toBeInTheDocument();
    fireEvent.click(within(card).getByRole("link", { name: "Cadastre-se" }));
    expect(page.location.pathname).toBe("/cadastrar");
  });

  it("is not found for an unknown or deleted plan", async () => {
    stubApi({ [planCall(9)]: () => jsonResponse({ error: "Plano não encontrado" }, 404) });
    renderApp({ path: "/planos/9" });
    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
  });
});

describe("the Enterprise card", () => {
  it("follows the plans, to the enterprise form, where the station offers it", async () => {
    stubPlans();
    renderApp({ path: "/homepage/planos", station: buildStation({ enterprise_plan_access: true }) });

    const card = await screen.findByRole("article", { name: "Enterprise" });
    expect(within(card).getByText("A negociar")).toBeInTheDocument();
    expect(within(card).getByRole("link", { name: "Entrar em contato: Enterprise" })).toHaveAttribute(
      "href",
      "/homepage/planos/sobconsulta",
    );
    expect(screen.getAllByRole("article").at(-1)).toBe(card);
  });

  it("shows alone, instead of the empty text, for a station with no plans", async () => {
    stubPlans({ [PLANS]: () => jsonResponse([]) });
    renderApp({ path: "/homepage/planos", station: buildStation({ enterprise_plan_access: true }) });

    expect(await screen.findByRole("article", { name: "Enterprise" })).toBeInTheDocument();
    expect(screen.queryByText("Não há planos disponíveis.")).not.toBeInTheDocument();
  });

  it("does not show where the station does not offer it", async () => {
    stubPlans();
    renderApp({ path: "/homepage/planos" });

    await screen.findByRole("article", { name: "Essencial" });
    expect(screen.queryByRole("article", { name: "Enterprise" })).not.toBeInTheDocument();
  });
});
