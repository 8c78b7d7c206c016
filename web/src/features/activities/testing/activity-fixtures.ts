// Activities as the API answers them (docs/api-activities.md), and the stubs of the home's calls.
import type { Activity, ActivityCard, ActivityVideo, Category, Journey, NowPlaying } from "@/types/api";
import { jsonResponse } from "@/testing/fixtures";
import type { ApiHandler } from "@/testing/stub-api";

/** Calls of the member Maria (id 1) on the demo station (id 7). */
export const HOME_CALLS = {
  featured: "GET /api/actions/?where[featuredPrivate]=1&where[station_id]=7&where[user_id]=1",
  nowPlaying: "GET /api/now-playing",
  journeys: "GET /api/journeys",
  categories: "GET /api/participant-categories/?where[station_id]=7&where[user_id]=1&limit=4&offset=0",
} as const;

export const RAW_CONTENT_CALL = "POST /api/raw-content-participation";

/** The list pages ask for 24 activities at a time. */
const page = (offset: number) => `limit=24&offset=${offset}`;

export const activitiesCall = (offset = 0) => `GET /api/actions/?where[station_id]=7&where[user_id]=1&${page(offset)}`;
export const activityCall = (id: number) => `GET /api/actions/${id}/?where[user_id]=1`;
export const categoryCall = (id: number, offset = 0) =>
  `GET /api/participant-categories/?where[station_id]=7&where[user_id]=1&where[id]=${id}&${page(offset)}`;
/** A desk landing's carousel: the category's first 10 activities. */
export const categoryCarouselCall = (id: number) =>
  `GET /api/participant-categories/?where[station_id]=7&where[user_id]=1&where[id]=${id}&limit=10&offset=0`;
export const searchCall = (term: string, offset = 0) =>
  `GET /api/actions-by-name/?where[name]=${encodeURIComponent(term)}&where[user_id]=1&where[station_id]=7&${page(offset)}`;
export const publicActivityCall = (id: number, stationId = 7) => `GET /api/public-actions/${id}/${stationId}`;
/** The landing page's carousel: the station's public featured activities, 10 at most. */
export const PUBLIC_FEATURED_CALL = "GET /api/public-actions/7?where[featuredPublic]=1&limit=10";

export function buildActivityCard(overrides: Partial<ActivityCard> = {}): ActivityCard {
  return {
    id: 12,
    name: "Quiz da semana",
    image: "/api/media/activities/12.png",
    featuredImage: null,
    type_id: 6,
    type: "Quiz",
    points: 100,
    additional_cashback: 20,
    cashback: 120,
    click_me_label: "Participar",
    redirect_links: [],
    participationStart: "2026-11-01T12:00:00Z",
    participationEnd: "2026-12-31T12:00:00Z",
    limitPerUser: 1,
    userActions: 0,
    availability: "open",
    prerequisites: { action_has_prerequisites: false, user_done_prerequisites: true, action_prerequisites: [] },
    priority: 10,
    priorityCarousel: 0,
    featured: false,
    public: true,
    ...overrides,
  };
}

/** Cards with distinct ids (12, 13, ...) named "Atividade 1", "Atividade 2", ... */
export function buildActivityCards(count: number, overrides: Partial<ActivityCard> = {}): ActivityCard[] {
  return Array.from({ length: count }, (_, index) =>
    buildActivityCard({ id: 12 + index, name: `Atividade ${index + 1}`, ...overrides }),
  );
}

export function buildActivity(overrides: Partial<Activity> = {}): Activity {
  return {
    ...buildActivityCard(),
    station_id: 7,
    description: "<p>Responda e <strong>ganhe</strong>.</p>",
    rules: "<p>Uma participação por pessoa.</p>",
    has_rules: true,
    feedback_message: "Obrigado por participar!",
    feedback_lottie_id: null,
    comments_and_likes_enabled: false,
    contents: [],
    agreements: [],
    partner_id: null,
    action_videos: [],
    user_videos: [],
    researches: [],
    action_subscriptions: [],
    ...overrides,
  };
}

/** A category holding `actions` (a page of them), `actions_count` in all (all of them unless told). */
export function buildCategory(
  { actions = [], ...overrides }: Partial<Omit<Category, "category_actions">> & { actions?: ActivityCard[] } = {},
): Category {
  return {
    id: 1,
    name: "Saúde",
    icon: null,
    category_actions: actions.map((action) => ({ action })),
    actions_count: actions.length,
    ...overrides,
  };
}

/** A custom video (a file of ours) unless `video` says otherwise. */
export function buildActivityVideo(overrides: Partial<ActivityVideo> = {}): ActivityVideo {
  return {
    video_id: 7,
    name: "Apresentação",
    description: "",
    required: false,
    duration_seconds: 6,
    video: { url: "/api/media/videos/7.mp4", custom: true, embed_url: null },
    ...overrides,
  };
}

/** A YouTube or Vimeo video: its page, and the provider's player the server gives. */
export function buildExternalVideo(name: string, url: string, embedUrl: string): ActivityVideo {
  return buildActivityVideo({ name, video: { url, custom: false, embed_url: embedUrl } });
}

export interface HomeData {
  featured?: ActivityCard[];
  nowPlaying?: NowPlaying[];
  journeys?: Journey[];
  categories?: Category[];
}

/** The home's four calls, answering empty lists unless told otherwise. */
export function homeHandlers(data: HomeData = {}): Record<string, ApiHandler> {
  return {
    [HOME_CALLS.featured]: () => jsonResponse(data.featured ?? []),
    [HOME_CALLS.nowPlaying]: () => jsonResponse(data.nowPlaying ?? []),
    [HOME_CALLS.journeys]: () => jsonResponse(data.journeys ?? []),
    [HOME_CALLS.categories]: () => jsonResponse(data.categories ?? []),
  };
}
