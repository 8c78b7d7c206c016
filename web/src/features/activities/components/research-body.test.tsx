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

async function openActivity(activity: Activity) {
  stubApi({
    "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()),
    [activityCall(activity.id)]: () => jsonResponse(activity),
    ...homeHandlers(),
  });
  renderApp({ path: `/homepage/atividades/${activity.id}` });
  await screen.findByRole("heading", { name: activity.name, level: 1 });
}

const research = { id: 5, name: "Perguntas", question_count: 3 };

describe("quiz and survey activities (types 6 to 12)", () => {
  it("lead a quiz to its runner, with the activity's label", async () => {
    await openActivity(buildActivity({ type_id: 6, click_me_label: "Responder o quiz", researches: [research] }));
    expect(screen.getByRole("link", { name: "Responder o quiz" })).toHaveAttribute(
      "href",
      "/homepage/quizzes/quiz?research=5&action=12",
    );
  });

  it("lead a survey to its form, 'Participar' without a label", async () => {
    await openActivity(buildActivity({ type_id: 9, click_me_label: null, researches: [research] }));
    expect(screen.getByRole("link", { name: "Participar" })).toHaveAttribute("href", "/homepage/survey/5/12");
  });

  it("offer nothing when the member may not take part", async () => {
    await openActivity(buildActivity({ type_id: 8, availability: "limit_reached", researches: [research] }));
    expect(screen.queryByRole("link", { name: "Participar" })).not.toBeInTheDocument();
  });
});
