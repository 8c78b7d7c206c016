// A post's image or video. A video plays once ready; until then its author (the only one
// who sees the post) follows the transcode job's percent, or reads why it failed.
import { useEffect } from "react";
import { useRefreshFeed } from "@/features/feed/api/posts";
import type { FeedPost, FeedVideo } from "@/features/feed/api/types";
import { useJobState } from "@/features/jobs";

export const VIDEO_PROCESSING_TEXT = "Processando o vídeo...";
export const VIDEO_FAILED_TEXT = "Não foi possível processar o vídeo.";

export function PostMedia({ post }: { post: FeedPost }) {
  const { image, video, user } = post;
  if (image) return <img className="feed-post__image" src={image} alt={`Imagem do post de ${user.name}`} loading="lazy" />;
  if (!video) return null;
  if (video.status === "ready" && video.url) {
    return (
      <video
        className="feed-post__video"
        controls
        preload="none"
        poster={video.poster ?? undefined}
        src={video.url}
        aria-label={`Vídeo do post de ${user.name}`}
      />
    );
  }
  if (!post.userAuthor) return null;
  if (video.status === "failed") {
    return (
      <p className="feed-video-state feed-video-state--failed" role="alert">
        {video.failure ?? VIDEO_FAILED_TEXT}
      </p>
    );
  }
  return <VideoProcessing video={video} />;
}

/** The transcode job's percent, polled until it ends; then the feed is read again for the video. */
function VideoProcessing({ video }: { video: FeedVideo }) {
  const job = useJobState(video.jobId);
  const refreshFeed = useRefreshFeed();
  const { isFinal } = job;
  useEffect(() => {
    if (isFinal) void refreshFeed();
  }, [isFinal, refreshFeed]);

  const percent = job.progress;
  return (
    <div className="feed-video-state" aria-busy="true">
      <p className="feed-video-state__text" role="status">
        {percent === null ? VIDEO_PROCESSING_TEXT : `${VIDEO_PROCESSING_TEXT} ${percent}%`}
      </p>
      <div
        className={percent === null ? "feed-progress feed-progress--indeterminate" : "feed-progress"}
        role="progressbar"
        aria-label={VIDEO_PROCESSING_TEXT}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
      >
        <span className="feed-progress__fill" style={percent === null ? undefined : { width: `${percent}%` }} />
      </div>
      <p className="feed-muted">Só você vê este post até o vídeo ficar pronto.</p>
    </div>
  );
}
