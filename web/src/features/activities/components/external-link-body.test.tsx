import { screen } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { Activity } from "@/types/api";
import { activityCall, buildActivity, homeHandlers } from "@/features/activities/testing/activity-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

const external = (overrides: Partial<Activity> = {}) =>
  buildActivity({
    id: 51,
    name: "Acesse o gov.br",
    type_id: 13,
    redirect_links: [{ url: "https://www.gov.br/" }],
    ...overrides,
  });

async function openExternal(activity: Activity) {
  stubApi({
    "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()),
    [activityCall(activity.id)]: () => jsonResponse(activity),
    ...homeHandlers(),
  });
  renderApp({ path: `/homepage/atividades/${activity.id}` });
  await screen.findByRole("heading", { name: activity.name, level: 1 });
}

describe("external link (type 13)", () => {
  it("opens redirect_links[0] in a new tab under the activity's label", async () => {
    await openExternal(external({ click_me_label: "Acessar o gov.br" }));
    const link = screen.getByRole("link", { name: "Acessar o gov.br" });
    expect(link).toHaveAttribute("href", "https://www.gov.br/");
    expect(link).toHaveAttribute("target", "_blank");
    expect(link).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("reads 'Acessar' without a label", async () => {
    await openExternal(external({ click_me_label: null }));
    expect(screen.getByRole("link", { name: "Acessar" })).toHaveAttribute("href", "https://www.gov.br/");
  });

  it("shows nothing when the activity has no link", async () => {
    await openExternal(external({ id: 52, redirect_links: [] }));
    expect(screen.queryByRole("link", { name: "Acessar" })).not.toBeInTheDocument();
  });

  it("shows nothing when the activity is not open", async () => {
    await openExternal(external({ id: 53, availability: "ended" }));
    expect(screen.queryByRole("link", { name: "Acessar" })).not.toBeInTheDocument();
  });
});
