// Watching videos: what the player played and the member's "viewed" (POST on the first play,
// PUT afterwards: /videos/check-videos/{id}), judged by the server; and the playlist's
// participation once every video is viewed. A report's answer updates the activity's
// user_videos in place, so the list's locks and marks follow at once.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { activityKeys } from "@/features/activities/api/activity-keys";
import { useMemberScope } from "@/features/activities/api/member-scope";
import { api } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import type { Activity, ParticipationRecorded, UserVideo } from "@/types/api";

export interface VideoReport {
  videoId: number;
  /** POST starts the watch (the first play); PUT reports progress and toggles. */
  first: boolean;
  hasViewed: boolean;
  played?: [number, number][];
}

export function useVideoReport(activity: Pick<Activity, "id">) {
  const queryClient = useQueryClient();
  const { userId } = useMemberScope();
  return useMutation({
    mutationFn: ({ videoId, first, hasViewed, played = [] }: VideoReport) => {
      const body = { action_id: activity.id, has_viewed: hasViewed, played };
      const path = `/videos/check-videos/${videoId}`;
      return first ? api.post<UserVideo>(path, body) : api.put<UserVideo>(path, body);
    },
    meta: OWN_ERROR_TEXT,
    onSuccess: (view) => {
      queryClient.setQueryData<Activity>(activityKeys.detail(userId, String(activity.id)), (detail) => {
        if (!detail) return detail;
        const others = detail.user_videos.filter((v) => v.video_id !== view.video_id);
        return { ...detail, user_videos: [...others, view] };
      });
    },
  });
}

/** The playlist's participation: the spec's own call for one of YouTube or Vimeo videos. */
export function usePlaylistParticipation(activity: Pick<Activity, "id" | "action_videos">) {
  const queryClient = useQueryClient();
  const { userId } = useMemberScope();
  const external = activity.action_videos.some((video) => !video.video.custom);
  const path = external ? "/video-youtube-participation" : "/video-playlist-participation";
  return useMutation({
    mutationFn: () => api.post<ParticipationRecorded>(path, { action_id: activity.id }),
    meta: OWN_ERROR_TEXT,
    onSuccess: async () => {
      // The page shown reads its views again (a limited playlist's were spent); the rest
      // of the activities' answers, when next shown.
      await queryClient.invalidateQueries({ queryKey: activityKeys.detail(userId, String(activity.id)) });
      await queryClient.invalidateQueries({ queryKey: activityKeys.all, refetchType: "none" });
    },
  });
}
