// The activities API's answers (docs/api-activities.md), written by hand from the contract.
// Every other file imports these types from here only, so they can later become aliases of
// the generated OpenAPI types without touching the screens.

/** When a member may take part, computed by the server at the time of the call. */
export type Availability = "date_missing" | "not_started" | "ended" | "limit_reached" | "open";

export interface RedirectLink {
  url: string;
}

export interface ActionPrerequisite {
  id: number;
  name: string;
  done: boolean;
}

export interface Prerequisites {
  action_has_prerequisites: boolean;
  user_done_prerequisites: boolean;
  action_prerequisites: ActionPrerequisite[];
}

/** What rows, grids and search results need of an activity. */
export interface ActivityCard {
  id: number;
  name: string;
  image: string | null;
  featuredImage: string | null;
  type_id: number;
  type: string;
  /** Whole points, as are `additional_cashback` and `cashback` (= points + additional_cashback). */
  points: number;
  additional_cashback: number;
  cashback: number;
  click_me_label: string | null;
  redirect_links: RedirectLink[];
  participationStart: string | null;
  participationEnd: string | null;
  limitPerUser: number | null;
  userActions: number;
  availability: Availability;
  prerequisites: Prerequisites;
  priority: number;
  priorityCarousel: number;
  featured: boolean;
  public: boolean;
}

export interface ActivityContent {
  text: string;
  link: string | null;
}

/** The detail of an activity. */
export interface Activity extends ActivityCard {
  station_id: number;
  /** HTML, sanitised by the server. */
  description: string;
  /** HTML, sanitised by the server. */
  rules: string;
  has_rules: boolean;
  feedback_message: string | null;
  feedback_lottie_id: number | null;
  comments_and_likes_enabled: boolean;
  contents: ActivityContent[];
  partner_id: number | null;
}

export interface JourneyActivity extends ActivityCard {
  hasDone: boolean;
}

export interface Journey {
  id: number;
  name: string;
  completed: number;
  /** In the journey's order with the done ones moved first. */
  actions: JourneyActivity[];
}

export interface NowPlaying {
  id: number;
  title: string;
  actions: ActivityCard[];
}

export interface CategoryAction {
  action: ActivityCard;
}

export interface Category {
  id: number;
  name: string;
  icon: string | null;
  category_actions: CategoryAction[];
}

export interface RawContentParticipationRequest {
  action_id: number;
}

export interface RawContentParticipation {
  participation_id: number;
  action_id: number;
  points: number;
  cashback: number;
  job_id: string | null;
}

/** A Lottie animation's JSON, read only by the player. */
export type LottieAnimation = Record<string, unknown>;
