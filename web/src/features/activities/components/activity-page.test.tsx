import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Activity } from "@/types/api";
import {
  activityCall,
  buildActivity,
  buildActivityVideo,
  buildExternalVideo,
  homeHandlers,
  publicActivityCall,
  RAW_CONTENT_CALL,
} from "@/features/activities/testing/activity-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildStation, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const loadAnimation = vi.hoisted(() => vi.fn(() => ({ destroy: () => undefined })));
vi.mock("lottie-web/build/player/lottie_light", () => ({ default: { loadAnimation } }));

const BALANCE = "GET /api/users-points/1";
const LOTTIE = "GET /api/lottie-files/2";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

function stubActivity(activity: Activity, handlers: Record<string, ApiHandler> = {}) {
  return stubApi({
    [BALANCE]: () => jsonResponse(buildWalletBalance()),
    [activityCall(activity.id)]: () => jsonResponse(activity),
    ...homeHandlers(),
    ...handlers,
  });
}

async function renderDetail(activity: Activity, path = `/homepage/atividades/${activity.id}`) {
  const rendered = renderApp({ path });
  await screen.findByRole("heading", { name: activity.name, level: 1 });
  return rendered;
}

describe("activity detail", () => {
  beforeEach(() => {
    signIn();
  });

  it("leads a shop activity to its products", async () => {
    const activity = buildActivity({ type_id: 14, name: "Loja do clube", click_me_label: null });
    stubActivity(activity);
    await renderDetail(activity);

    expect(screen.getByRole("link", { name: "Ver produtos" })).toHaveAttribute("href", "/homepage/shopping/12");
  });

  it("shows the image, the name, the description as HTML and both tabs", async () => {
    const activity = buildActivity();
    stubActivity(activity);
    const { container } = renderApp({ path: "/homepage/atividade/12" });
    await screen.findByRole("heading", { name: "Quiz da semana", level: 1 });

    expect(container.querySelector(".activity-detail__image")).toHaveAttribute("src", "/api/media/activities/12.png");
    expect(screen.getByText("ganhe", { selector: "strong" })).toBeInTheDocument();
    expect(screen.getAllByRole("tab").map((tab) => tab.textContent)).toEqual(["Geral", "Regulamento"]);

    fireEvent.click(screen.getByRole("tab", { name: "Regulamento" }));
    expect(screen.getByRole("tabpanel")).toHaveTextContent("Uma participação por pessoa.");
    expect(screen.queryByText("ganhe")).not.toBeInTheDocument();
  });

  it("has no 'Regulamento' without rules", async () => {
    const activity = buildActivity({ has_rules: false, rules: "" });
    stubActivity(activity);
    await renderDetail(activity);

    expect(screen.getByRole("tab", { name: "Geral" })).toBeInTheDocument();
    expect(screen.queryByRole("tab", { name: "Regulamento" })).not.toBeInTheDocument();
  });

  it("has no image on top for a video playlist (type 18)", async () => {
    const activity = buildActivity({ type_id: 18 });
    stubActivity(activity);
    const { container } = await renderDetail(activity);

    expect(container.querySelector(".activity-detail__image")).toBeNull();
  });

  it("shows the not-found view for an activity the member cannot see", async () => {
    stubApi({
      [BALANCE]: () => jsonResponse(buildWalletBalance()),
      [activityCall(99)]: () => jsonResponse({ error: "Erro! Esta atividade não está disponível." }, 404),
    });
    renderApp({ path: "/homepage/atividades/99" });

    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
    expect(screen.getByText("Erro! Esta atividade não está disponível.")).toBeInTheDocument();
  });
});

describe("first video", () => {
  beforeEach(() => {
    signIn();
  });

  it("plays a custom video in the page's own player, after the description", async () => {
    const activity = buildActivity({
      action_videos: [buildActivityVideo({ name: "Apresentação" }), buildActivityVideo({ video_id: 8, name: "Segundo" })],
    });
    stubActivity(activity);
    const { container } = await renderDetail(activity);

    const videos = container.querySelectorAll("video");
    expect(videos).toHaveLength(1);
    const video = videos[0]!;
    expect(video).toHaveAttribute("src", "/api/media/videos/7.mp4");
    expect(video).toHaveAttribute("controls");
    expect(video).toHaveAttribute("preload", "metadata");
    expect(video).toHaveAccessibleName("Apresentação");
    expect(container.querySelector(".activity-detail__description")?.nextElementSibling).toBe(video);
    expect(container.querySelector("iframe")).toBeNull();
  });

  it("plays a YouTube or Vimeo video in its provider's player", async () => {
    const activity = buildActivity({
      action_videos: [
        buildExternalVideo(
          "No YouTube",
          "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
          "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
        ),
      ],
    });
    stubActivity(activity);
    const { container } = await renderDetail(activity);

    const player = screen.getByTitle("No YouTube");
    expect(player.tagName).toBe("IFRAME");
    expect(player).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
    expect(player).toHaveAttribute("allowfullscreen");
    expect(player).toHaveAttribute("referrerpolicy", "strict-origin-when-cross-origin");
    expect(player).toHaveAttribute("loading", "lazy");
    expect(container.querySelector("video")).toBeNull();
  });

  it("names the player after the activity when the video has no name", async () => {
    const activity = buildActivity({
      action_videos: [buildExternalVideo("", "https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871")],
    });
    stubActivity(activity);
    await renderDetail(activity);

    expect(screen.getByTitle("Quiz da semana")).toHaveAttribute("src", "https://player.vimeo.com/video/76979871");
  });

  it("shows no player when the activity has no video", async () => {
    const activity = buildActivity();
    stubActivity(activity);
    const { container } = await renderDetail(activity);

    expect(container.querySelector("video, iframe")).toBeNull();
  });
});

describe("availability messages", () => {
  beforeEach(() => {
    signIn();
  });

  it.each([
    ["date_missing", { participationStart: null }, "Houve um problema com a data de publicação desta atividade."],
    [
      "not_started",
      { participationStart: "2026-12-01T13:00:00Z", participationEnd: "2026-12-31T23:30:00Z" },
      "Esta atividade está disponível de 01/12/2026 10:00 até 31/12/2026 20:30.",
    ],
    [
      "ended",
      { participationStart: "2026-10-01T03:00:00Z", participationEnd: "2026-10-31T02:59:00Z" },
      "Esta atividade está disponível de 01/10/2026 00:00 até 30/10/2026 23:59.",
    ],
    ["limit_reached", { userActions: 1 }, "Olá, você já ultrapassou o limite de participações nessa atividade!"],
  ] as const)("says so for %s", async (availability, overrides, text) => {
    const activity = buildActivity({ availability, ...overrides });
    stubActivity(activity);
    await renderDetail(activity);

    expect(screen.getByRole("note")).toHaveTextContent(text);
  });

  it("reads the window on the station's clock", async () => {
    const activity = buildActivity({
      availability: "not_started",
      participationStart: "2026-12-01T13:00:00Z",
      participationEnd: "2026-12-31T23:30:00Z",
    });
    stubActivity(activity);
    renderApp({ path: `/homepage/atividades/${activity.id}`, station: buildStation({ time_zone: "America/Manaus" }) });
    await screen.findByRole("heading", { name: activity.name, level: 1 });

    expect(screen.getByRole("note")).toHaveTextContent(
      "Esta atividade está disponível de 01/12/2026 09:00 até 31/12/2026 19:30.",
    );
  });

  it("says nothing while the activity is open", async () => {
    const activity = buildActivity();
    stubActivity(activity);
    await renderDetail(activity);

    expect(screen.queryByRole("note")).not.toBeInTheDocument();
  });
});

describe("raw content (type 16)", () => {
  beforeEach(() => {
    signIn();
  });

  const rawContent = (overrides: Partial<Activity> = {}) =>
    buildActivity({ id: 9, name: "Conheça o clube", type_id: 16, feedback_lottie_id: 2, ...overrides });
  const participated = () =>
    jsonResponse({ recorded: true, participation_id: 5, action_id: 9, points: 10, cashback: 10, job_id: null }, 201);
  const viewedBefore = () =>
    jsonResponse({ recorded: false, participation_id: 5, action_id: 9, points: 10, cashback: 10, job_id: null });

  it("has no tabs", async () => {
    const activity = rawContent();
    stubActivity(activity, { [RAW_CONTENT_CALL]: participated, [LOTTIE]: () => jsonResponse({ v: "5.7.0" }) });
    await renderDetail(activity);

    expect(screen.queryByRole("tab")).not.toBeInTheDocument();
    expect(screen.getByText("ganhe", { selector: "strong" })).toBeInTheDocument();
  });

  it("sends the participation once, opens the feedback and refreshes the balance when it leaves", async () => {
    const activity = rawContent();
    const api = stubActivity(activity, {
      [RAW_CONTENT_CALL]: participated,
      [LOTTIE]: () => jsonResponse({ v: "5.7.0", layers: [] }),
    });
    const { page } = await renderDetail(activity);

    const dialog = await screen.findByRole("dialog", { name: "Conheça o clube" });
    expect(api.bodiesOf(RAW_CONTENT_CALL)).toEqual([{ action_id: 9 }]);
    expect(within(dialog).getByText("Obrigado por participar!")).toBeInTheDocument();
    await waitFor(() => expect(loadAnimation).toHaveBeenCalledWith(expect.objectContaining({ animationData: { v: "5.7.0", layers: [] } })));
    expect(api.callsTo(BALANCE)).toHaveLength(1);

    fireEvent.click(within(dialog).getByRole("link", { name: "Página inicial" }));
    expect(page.location.pathname).toBe("/homepage");
    // Leaving the dialog asks for the balance a second time (its own refresh is every 30 s).
    await waitFor(() => expect(api.callsTo(BALANCE)).toHaveLength(2));
    expect(api.callsTo(RAW_CONTENT_CALL)).toHaveLength(1);
  });

  it("leaves the member on the content when the feedback is dismissed", async () => {
    const activity = rawContent({ feedback_lottie_id: null });
    const api = stubActivity(activity, { [RAW_CONTENT_CALL]: participated });
    const { page } = await renderDetail(activity);

    fireEvent.keyDown(await screen.findByRole("dialog", { name: "Conheça o clube" }), { key: "Escape" });

    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(page.location.pathname).toBe("/homepage/atividades/9");
    expect(screen.getByText("ganhe", { selector: "strong" })).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(BALANCE)).toHaveLength(2));
  });

  it("congratulates only the view that recorded the participation", async () => {
    const activity = rawContent();
    const api = stubActivity(activity, { [RAW_CONTENT_CALL]: viewedBefore });
    await renderDetail(activity);

    await waitFor(() => expect(api.callsTo(RAW_CONTENT_CALL)).toHaveLength(1));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("sends nothing when the member may not take part", async () => {
    const activity = rawContent({ availability: "limit_reached", userActions: 1 });
    const api = stubActivity(activity, { [RAW_CONTENT_CALL]: participated });
    await renderDetail(activity);

    expect(screen.getByRole("note")).toHaveTextContent("Olá, você já ultrapassou o limite de participações nessa atividade!");
    expect(api.callsTo(RAW_CONTENT_CALL)).toHaveLength(0);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("shows the server's refusal as the error toast, with no feedback", async () => {
    const activity = rawContent();
    stubActivity(activity, {
      [RAW_CONTENT_CALL]: () => jsonResponse({ messages: ["Complete antes: Cadastro completo."] }, 422),
    });
    await renderDetail(activity);

    expect(await screen.findByText("Complete antes: Cadastro completo.")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });
});

describe("public activity page", () => {
  it("shows a public activity of the host's station, every action leading to /cadastrar", async () => {
    const activity = buildActivity({ type_id: 16 });
    const api = stubApi({ [publicActivityCall(12)]: () => jsonResponse(activity) });
    const { page } = renderApp({ path: "/atividade/12" });
    await screen.findByRole("heading", { name: "Quiz da semana", level: 1 });

    const action = screen.getByRole("link", { name: "Participar" });
    expect(action).toHaveAttribute("href", "/cadastrar");
    expect(api.callsTo(RAW_CONTENT_CALL)).toHaveLength(0);
    fireEvent.click(action);
    expect(page.location.pathname).toBe("/cadastrar");
  });

  it("shows the first video to visitors too, as members see it", async () => {
    const activity = buildActivity({ action_videos: [buildActivityVideo()] });
    stubApi({ [publicActivityCall(12)]: () => jsonResponse(activity) });
    const { container } = renderApp({ path: "/atividade/12" });
    await screen.findByRole("heading", { name: "Quiz da semana", level: 1 });

    expect(container.querySelector("video")).toHaveAttribute("src", "/api/media/videos/7.mp4");
  });

  it("sends a signed-in member to the member's page of the activity", async () => {
    signIn();
    const activity = buildActivity();
    const api = stubActivity(activity);
    const { page } = await renderDetail(activity, "/atividade/12");

    expect(page.location.pathname).toBe("/homepage/atividade/12");
    expect(api.callsTo(publicActivityCall(12))).toHaveLength(0);
  });

  it("shows the not-found view for an activity that is not public", async () => {
    stubApi({ [publicActivityCall(13)]: () => jsonResponse({ error: "Estação não encontrada" }, 404) });
    renderApp({ path: "/atividade/13" });

    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
  });
});
