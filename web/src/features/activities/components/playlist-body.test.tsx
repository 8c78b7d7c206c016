import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { Activity } from "@/types/api";
import {
  activityCall,
  buildActivity,
  buildActivityVideo,
  homeHandlers,
} from "@/features/activities/testing/activity-fixtures";
import { formatDuration, lockedVideos, coveredSeconds, videoName, viewsById } from "@/features/activities/video-watch";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

const PLAYLIST = "POST /api/video-playlist-participation";
const NOT_WATCHED = "Assista a pelo menos 80% do vídeo para marcá-lo como visto.";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

const videos = [
  buildActivityVideo({ video_id: 1, name: "Como juntar pontos", required: true, duration_seconds: 6 }),
  buildActivityVideo({ video_id: 2, name: "Como trocar pontos por benefícios no clube", duration_seconds: 75 }),
];

const playlist = (overrides: Partial<Activity> = {}) =>
  buildActivity({ id: 51, name: "Primeiros passos", type_id: 18, action_videos: videos, ...overrides });

function stubPlaylist(activity: Activity, handlers: Record<string, ApiHandler> = {}) {
  return stubApi({
    "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()),
    [activityCall(activity.id)]: () => jsonResponse(activity),
    ...homeHandlers(),
    ...handlers,
  });
}

/** Lets a call the page would make reach the stub before checking it did not. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

async function open(activity: Activity) {
  const rendered = renderApp({ path: `/homepage/atividades/${activity.id}` });
  await screen.findByRole("heading", { name: activity.name, level: 1 });
  return rendered;
}

describe("video helpers", () => {
  it("shows durations as mm:ss and cuts names at 30", () => {
    expect(formatDuration(6)).toBe("00:06");
    expect(formatDuration(75.4)).toBe("01:15");
    expect(formatDuration(3600)).toBe("60:00");
    expect(videoName("Como trocar pontos por benefícios no clube")).toBe("Como trocar pontos por benefíc...");
  });

  it("locks every video after a required one not viewed", () => {
    const three = [...videos, buildActivityVideo({ video_id: 3, required: false })];
    expect(lockedVideos(three, viewsById([]))).toEqual([false, true, true]);
    const viewed = viewsById([{ action_id: 51, video_id: 1, viewed_once: true, has_viewed: false }]);
    expect(lockedVideos(three, viewed)).toEqual([false, false, false]);
  });

  it("adds up the played ranges", () => {
    expect(coveredSeconds([[0, 2.5], [4, 6]])).toBe(4.5);
  });
});

describe("video playlist (type 18)", () => {
  it("lists the videos with their durations and locks, and a light thumbnail until played", async () => {
    const api = stubPlaylist(playlist(), {
      "POST /api/videos/check-videos/1": () =>
        jsonResponse({ action_id: 51, video_id: 1, viewed_once: false, has_viewed: false }),
    });
    await open(playlist());

    const list = screen.getByRole("list");
    const items = within(list).getAllByRole("button");
    expect(items[0]).toHaveTextContent("Como juntar pontos00:06");
    expect(items[1]).toHaveTextContent("Como trocar pontos por benefíc...01:15Bloqueado");
    expect(items[1]).toBeDisabled();
    expect(document.querySelector("video")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: /Assistir · 00:06/ }));
    const player = await screen.findByLabelText("Como juntar pontos");
    fireEvent.play(player);
    await waitFor(() =>
      expect(api.bodiesOf("POST /api/videos/check-videos/1")).toEqual([{ action_id: 51, has_viewed: false, played: [] }]),
    );
    // A second play of the same video in this visit does not start it again.
    fireEvent.play(player);
    await settle();
    expect(api.callsTo("POST /api/videos/check-videos/1")).toHaveLength(1);
  });

  it("shows the server's refusal of a ticked checkbox", async () => {
    stubPlaylist(playlist(), {
      "POST /api/videos/check-videos/1": () =>
        jsonResponse({ action_id: 51, video_id: 1, viewed_once: false, has_viewed: false }),
      "PUT /api/videos/check-videos/1": () => jsonResponse({ messages: [NOT_WATCHED] }, 422),
    });
    await open(playlist());
    fireEvent.click(screen.getByRole("button", { name: /Assistir/ }));
    fireEvent.click(await screen.findByRole("checkbox", { name: "Assisti a este vídeo" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(NOT_WATCHED);
  });

  it("sends the playlist's participation once every video is viewed, and congratulates", async () => {
    const done = playlist({
      user_videos: [
        { action_id: 51, video_id: 1, viewed_once: true, has_viewed: true },
        { action_id: 51, video_id: 2, viewed_once: true, has_viewed: true },
      ],
    });
    const api = stubPlaylist(done, {
      [PLAYLIST]: () =>
        jsonResponse({ recorded: true, participation_id: 9, action_id: 51, points: 20, cashback: 20, job_id: "j" }, 201),
    });
    await open(done);
    expect(await screen.findByRole("dialog", { name: "Primeiros passos" })).toBeInTheDocument();
    expect(api.bodiesOf(PLAYLIST)).toEqual([{ action_id: 51 }]);
    expect(within(screen.getByRole("list")).getAllByText("Visto")).toHaveLength(2);
  });

  it("reports nothing when the member may not take part", async () => {
    const closed = playlist({ availability: "ended" });
    const api = stubPlaylist(closed);
    await open(closed);
    fireEvent.click(screen.getByRole("button", { name: /Assistir/ }));
    fireEvent.play(await screen.findByLabelText("Como juntar pontos"));
    await settle();
    expect(screen.queryByRole("checkbox")).toBeNull();
    expect(api.callsTo("POST /api/videos/check-videos/1")).toHaveLength(0);
  });
});
