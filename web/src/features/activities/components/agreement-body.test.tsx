import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { Activity } from "@/types/api";
import { activityCall, buildActivity, homeHandlers } from "@/features/activities/testing/activity-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const AGREEMENT = "POST /api/agreement";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

const terms = (overrides: Partial<Activity> = {}) =>
  buildActivity({
    id: 41,
    name: "Termo de adesão",
    type_id: 15,
    feedback_lottie_id: null,
    agreements: [{ checkbox: "Li e aceito o termo.", button: "Confirmar adesão" }],
    ...overrides,
  });

function stubTerms(activity: Activity, handlers: Record<string, ApiHandler> = {}) {
  return stubApi({
    "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()),
    [activityCall(activity.id)]: () => jsonResponse(activity),
    ...homeHandlers(),
    ...handlers,
  });
}

async function openTerms(activity: Activity) {
  const rendered = renderApp({ path: `/homepage/atividades/${activity.id}` });
  await screen.findByRole("heading", { name: activity.name, level: 1 });
  return rendered;
}

describe("agreement (type 15)", () => {
  it("requires the checkbox before anything is sent", async () => {
    const api = stubTerms(terms());
    await openTerms(terms());

    fireEvent.click(screen.getByRole("button", { name: "Confirmar adesão" }));
    expect(await screen.findByText("Esse campo é obrigatório")).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Li e aceito o termo." })).toHaveAttribute("aria-invalid", "true");
    expect(api.callsTo(AGREEMENT)).toHaveLength(0);
  });

  it("records the acceptance, then thanks the member and leads home", async () => {
    const api = stubTerms(terms(), {
      [AGREEMENT]: () => jsonResponse({ recorded: true, participation_id: 3, action_id: 41, points: 25, cashback: 25, job_id: "j" }, 201),
    });
    const { page } = await openTerms(terms());

    fireEvent.click(screen.getByRole("checkbox", { name: "Li e aceito o termo." }));
    fireEvent.click(screen.getByRole("button", { name: "Confirmar adesão" }));
    const dialog = await screen.findByRole("dialog", { name: "Termo de adesão" });
    expect(api.bodiesOf(AGREEMENT)).toEqual([{ action_id: 41, accepted: true }]);
    fireEvent.click(within(dialog).getByRole("link", { name: "Página inicial" }));
    expect(page.location.pathname).toBe("/homepage");
  });

  it("shows the server's refusal", async () => {
    stubTerms(terms(), {
      [AGREEMENT]: () => jsonResponse({ messages: ["Olá, você já ultrapassou o limite de participações nessa atividade!"] }, 422),
    });
    await openTerms(terms());
    fireEvent.click(screen.getByRole("checkbox", { name: "Li e aceito o termo." }));
    fireEvent.click(screen.getByRole("button", { name: "Confirmar adesão" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Olá, você já ultrapassou o limite de participações nessa atividade!");
  });

  it("offers nothing when the member may not take part", async () => {
    const done = terms({ availability: "limit_reached" });
    stubTerms(done);
    await openTerms(done);
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
  });
});
