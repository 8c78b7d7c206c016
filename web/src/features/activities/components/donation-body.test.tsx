import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { Activity } from "@/types/api";
import { activityCall, buildActivity, homeHandlers } from "@/features/activities/testing/activity-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const BALANCE = "GET /api/users-points/1";
const DONATE = "POST /api/user-donates";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

const cause = (overrides: Partial<Activity> = {}) =>
  buildActivity({ id: 31, name: "Campanha do agasalho", type_id: 20, feedback_lottie_id: null, ...overrides });

function stubCause(activity: Activity, handlers: Record<string, ApiHandler> = {}) {
  return stubApi({
    [BALANCE]: () => jsonResponse(buildWalletBalance()),
    [activityCall(activity.id)]: () => jsonResponse(activity),
    ...homeHandlers(),
    ...handlers,
  });
}

async function openCause(activity: Activity) {
  renderApp({ path: `/homepage/atividades/${activity.id}` });
  await screen.findByRole("heading", { name: activity.name, level: 1 });
}

const amount = () => screen.getByLabelText("Valor da doação (R$)");
const donate = (value: string) => {
  fireEvent.change(amount(), { target: { value } });
  fireEvent.click(screen.getByRole("button", { name: "Doar" }));
};

describe("donation (type 20)", () => {
  it("checks the spec's bounds before sending anything", async () => {
    const api = stubCause(cause());
    await openCause(cause());

    donate("0,49");
    expect(await screen.findByText("Valor mínimo requerido de R$ 0,50")).toBeInTheDocument();
    expect(amount()).toHaveAttribute("aria-invalid", "true");
    donate("10000,01");
    expect(screen.getByText("Valor máximo permitido de R$ 10.000,00.")).toBeInTheDocument();
    donate("dez reais");
    expect(screen.getByText("Informe o valor da doação.")).toBeInTheDocument();
    expect(amount()).toHaveValue("");
    expect(api.callsTo(DONATE)).toHaveLength(0);
  });

  it("sends the amount in reais, shows progress, then thanks the member and refreshes the balance", async () => {
    let answer: (response: Response) => void = () => undefined;
    const answered = new Promise<Response>((resolve) => (answer = resolve));
    const api = stubCause(cause(), { [DONATE]: () => answered });
    await openCause(cause());

    donate("25,50");
    expect(amount()).toHaveValue("R$ 25,50");
    const busy = await screen.findByRole("button", { name: "Enviando..." });
    expect(busy).toBeDisabled();
    expect(api.bodiesOf(DONATE)).toEqual([{ action_id: 31, points: 25.5 }]);
    answer(jsonResponse({ participation_id: 8, action_id: 31, amount: 2550, points: 2, cashback: 2, job_id: "j1" }, 201));

    const dialog = await screen.findByRole("dialog", { name: "Campanha do agasalho" });
    expect(within(dialog).getByText("Obrigado por participar!")).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(BALANCE).length).toBeGreaterThanOrEqual(2));
    expect(amount()).toHaveValue("");
  });

  it("takes the amount as Brazilians write it, thousands included", async () => {
    const api = stubCause(cause(), {
      [DONATE]: () => jsonResponse({ participation_id: 8, action_id: 31, amount: 123456, points: 2, cashback: 2, job_id: null }, 201),
    });
    await openCause(cause());
    donate("1.234,56");
    expect(await screen.findByRole("dialog", { name: "Campanha do agasalho" })).toBeInTheDocument();
    expect(api.bodiesOf(DONATE)).toEqual([{ action_id: 31, points: 1234.56 }]);
  });

  it("shows the server's refusal under the field", async () => {
    stubCause(cause(), {
      [DONATE]: () => jsonResponse({ messages: ["Saldo insuficiente para esta doação."] }, 422),
    });
    await openCause(cause());

    donate("50");
    expect(await screen.findByText("Saldo insuficiente para esta doação.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Doar" })).toBeEnabled();
  });

  it("offers no form when the member may not take part", async () => {
    const closed = cause({ availability: "ended" });
    stubCause(closed);
    await openCause(closed);
    expect(screen.queryByLabelText("Valor da doação (R$)")).not.toBeInTheDocument();
  });
});
