// Type 18 (spec 001 "Videos"): the playlist. One player and the list of videos (names cut at
// 30, durations mm:ss, viewed and locked marks). A video shows a light thumbnail until it is
// first played; the first play starts the watch on the server, the player's played ranges
// go with the "viewed" claim at 80%, and the checkbox ticks or unticks it by hand. A
// required video locks the later ones until viewed; at the end of one, the next plays by
// itself. When every video is viewed the playlist's participation is sent once.
import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { usePlaylistParticipation, useVideoReport } from "@/features/activities/api/videos";
import { FeedbackDialog } from "@/features/activities/components/feedback-dialog";
import {
  LOCKED_TEXT,
  PLAY_LABEL,
  VIEWED_LABEL,
  VIEWED_SHARE,
  VIEWED_TEXT,
  allViewed,
  coveredSeconds,
  formatDuration,
  lockedVideos,
  playedRanges,
  videoName,
  viewsById,
} from "@/features/activities/video-watch";
import { toastForError } from "@/lib/api-client";
import type { Activity, ActivityVideo } from "@/types/api";

/** How long a refused "viewed" claim waits before the player tries again. */
const CLAIM_RETRY_MS = 3000;

export function PlaylistBody({ activity }: { activity: Activity }) {
  const videos = activity.action_videos;
  const views = viewsById(activity.user_videos);
  const locked = lockedVideos(videos, views);
  const open = activity.availability === "open";
  const report = useVideoReport(activity);
  const playlist = usePlaylistParticipation(activity);
  const { pathname } = useLocation();
  const [current, setCurrent] = useState(() => {
    const next = videos.findIndex((video, i) => !locked[i] && !views.get(video.video_id)?.viewed_once);
    return Math.max(0, next);
  });
  const [playing, setPlaying] = useState<number | null>(null);
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const [checkError, setCheckError] = useState<string | null>(null);
  /** The current video ended: the next plays as soon as it is not locked. */
  const [advancing, setAdvancing] = useState(false);
  const player = useRef<HTMLVideoElement>(null);
  const started = useRef(new Set<number>());
  const lastClaim = useRef(0);
  const playlistSent = useRef(false);
  useErrorToast(playlist.error);

  const everyViewed = allViewed(videos, views);
  const { mutate: takePlaylist } = playlist;
  useEffect(() => {
    if (!open || !everyViewed || playlistSent.current) return;
    playlistSent.current = true;
    takePlaylist(undefined, {
      onSuccess: (answer) => {
        setFeedbackOpen(answer.recorded);
        // A limited playlist spent its views: the next participation is a new watch.
        if (activity.limitPerUser !== null) {
          started.current.clear();
          playlistSent.current = false;
        }
      },
      // Sent again at the next change of the views (or visit), not never.
      onError: () => {
        playlistSent.current = false;
      },
    });
  }, [open, everyViewed, takePlaylist, activity.limitPerUser]);

  // The lock is the server's answer to the claim the end of a required video sends: the
  // next plays once it opens (state adjusted while rendering, as React advises).
  if (advancing && !(locked[current + 1] ?? true)) {
    setAdvancing(false);
    setCurrent(current + 1);
    setPlaying(current + 1);
  }

  const video: ActivityVideo | undefined = videos[current];
  if (!video) return null;
  const view = views.get(video.video_id);

  const play = (index: number) => {
    if (locked[index]) return;
    setAdvancing(false);
    setCurrent(index);
    setPlaying(index);
    setCheckError(null);
  };

  const start = () => {
    if (!open || started.current.has(video.video_id)) return;
    started.current.add(video.video_id);
    report.mutate({ videoId: video.video_id, first: true, hasViewed: false });
  };

  /** Claims the view once 80% is played; at the end (`last`), whatever the throttle, and a
   * refusal is shown: no later progress would send it again. */
  const claimIfWatched = (last = false) => {
    const element = player.current;
    if (!open || !element || view?.has_viewed || (report.isPending && !last)) return;
    const ranges = playedRanges(element.played);
    if (coveredSeconds(ranges) < VIEWED_SHARE * video.duration_seconds) return;
    if (!last && Date.now() - lastClaim.current < CLAIM_RETRY_MS) return;
    lastClaim.current = Date.now();
    report.mutate(
      { videoId: video.video_id, first: false, hasViewed: true, played: ranges },
      { onError: (error) => last && setCheckError(toastForError(error).text) },
    );
  };

  const ended = () => {
    claimIfWatched(true);
    setAdvancing(true);
  };

  // The server counts played time on its own clock: faster playback would not be viewed.
  const keepNormalSpeed = () => {
    if (player.current && player.current.playbackRate > 1) player.current.playbackRate = 1;
  };

  const toggleViewed = (hasViewed: boolean) => {
    setCheckError(null);
    const played = player.current && playing === current ? playedRanges(player.current.played) : [];
    report.mutate(
      { videoId: video.video_id, first: false, hasViewed, played },
      { onError: (error) => setCheckError(toastForError(error).text) },
    );
  };

  return (
    <section className="playlist" aria-label="Vídeos">
      <div className="playlist__player">
        {playing !== current ? (
          <button type="button" className="playlist__thumbnail" onClick={() => play(current)}>
            <span className="playlist__play" aria-hidden="true">
              ▶
            </span>
            <span className="playlist__thumbnail-name">{video.name}</span>
            <span className="playlist__thumbnail-action">
              {PLAY_LABEL} · {formatDuration(video.duration_seconds)}
            </span>
          </button>
        ) : video.video.custom ? (
          <video
            key={video.video_id}
            ref={player}
            className="activity-video"
            src={video.video.url}
            controls
            autoPlay
            playsInline
            aria-label={video.name}
            onPlay={start}
            onTimeUpdate={() => claimIfWatched()}
            onRateChange={keepNormalSpeed}
            onEnded={ended}
          />
        ) : (
          video.video.embed_url && (
            <iframe
              key={video.video_id}
              className="activity-video"
              src={`${video.video.embed_url}?autoplay=1`}
              title={video.name}
              allow="autoplay; fullscreen; picture-in-picture; encrypted-media"
              allowFullScreen
              referrerPolicy="strict-origin-when-cross-origin"
              onLoad={start}
            />
          )
        )}
        {open && playing === current && (
          <label className="playlist__viewed">
            <input
              type="checkbox"
              checked={view?.has_viewed ?? false}
              disabled={report.isPending}
              onChange={(event) => toggleViewed(event.target.checked)}
            />
            {VIEWED_LABEL}
          </label>
        )}
        {checkError && (
          <p className="field__error" role="alert">
            {checkError}
          </p>
        )}
      </div>
      <ol className="playlist__list">
        {videos.map((item, index) => {
          const itemView = views.get(item.video_id);
          const mark = locked[index] ? LOCKED_TEXT : itemView?.viewed_once ? VIEWED_TEXT : null;
          return (
            <li key={item.video_id}>
              <button
                type="button"
                className="playlist__item"
                aria-current={index === current ? "true" : undefined}
                disabled={locked[index]}
                title={item.name}
                onClick={() => play(index)}
              >
                <span className="playlist__item-name">{videoName(item.name)}</span>
                <span className="playlist__item-duration">{formatDuration(item.duration_seconds)}</span>
                {mark && <span className="playlist__item-mark">{mark}</span>}
              </button>
            </li>
          );
        })}
      </ol>
      {feedbackOpen && (
        <FeedbackDialog activity={activity} returnTo={pathname} onClose={() => setFeedbackOpen(false)} />
      )}
    </section>
  );
}
