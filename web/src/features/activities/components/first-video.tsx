// An activity's first video, under its description (spec 001 "Activity detail"): a custom
// one (a file of ours) in the browser's player, a YouTube or Vimeo one in its provider's
// player. The playlist, the 80% view and the video participations come with the video
// types' issue.
import type { ActivityVideo } from "@/types/api";

export function FirstVideo({ videos, activityName }: { videos: ActivityVideo[]; activityName: string }) {
  const first = videos[0];
  if (!first) return null;
  const { video } = first;
  const title = first.name || activityName;

  if (video.custom) {
    return <video className="activity-video" src={video.url} controls preload="metadata" aria-label={title} />;
  }
  if (!video.embed_url) return null;
  return (
    <iframe
      className="activity-video"
      src={video.embed_url}
      title={title}
      allow="fullscreen; picture-in-picture; encrypted-media"
      allowFullScreen
      referrerPolicy="strict-origin-when-cross-origin"
      loading="lazy"
    />
  );
}
