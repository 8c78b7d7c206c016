// What the playlist shows and reports of its videos (spec 001 "Videos"): durations as mm:ss,
// names cut at 30, which videos a required one locks, and the ranges the browser played,
// which the server judges a "viewed" claim by (docs/api-activities.md "Videos").
import { truncateName } from "@/features/activities/activity-text";
import type { ActivityVideo, UserVideo } from "@/types/api";

export const VIDEO_NAME_LIMIT = 30;
/** A video counts as viewed at 80% played. */
export const VIEWED_SHARE = 0.8;
export const VIEWED_LABEL = "Assisti a este vídeo";
export const LOCKED_TEXT = "Bloqueado";
export const VIEWED_TEXT = "Visto";
export const PLAY_LABEL = "Assistir";

export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(whole / 60);
  return `${String(minutes).padStart(2, "0")}:${String(whole % 60).padStart(2, "0")}`;
}

export function videoName(name: string): string {
  return truncateName(name, VIDEO_NAME_LIMIT);
}

/** Each video's view state, by video id. */
export function viewsById(views: readonly UserVideo[]): Map<number, UserVideo> {
  return new Map(views.map((view) => [view.video_id, view]));
}

/** Whether each video is locked: a required video not viewed yet locks every later one. */
export function lockedVideos(videos: readonly ActivityVideo[], views: ReadonlyMap<number, UserVideo>): boolean[] {
  let locked = false;
  return videos.map((video) => {
    const thisOne = locked;
    if (video.required && !views.get(video.video_id)?.viewed_once) locked = true;
    return thisOne;
  });
}

/** The browser's played ranges as the server takes them: `[start, end]` seconds. */
export function playedRanges(played: TimeRanges): [number, number][] {
  const ranges: [number, number][] = [];
  for (let i = 0; i < played.length; i++) ranges.push([played.start(i), played.end(i)]);
  return ranges;
}

/** Seconds covered by `ranges` (the browser's are disjoint). */
export function coveredSeconds(ranges: readonly [number, number][]): number {
  return ranges.reduce((sum, [start, end]) => sum + Math.max(0, end - start), 0);
}

/**
 * Whether every video is viewed now: `has_viewed`, which a limited playlist's participation
 * clears (its next one needs the videos watched again), unlike `viewed_once`.
 */
export function allViewed(videos: readonly ActivityVideo[], views: ReadonlyMap<number, UserVideo>): boolean {
  return videos.length > 0 && videos.every((video) => views.get(video.video_id)?.has_viewed);
}
