// The feed's react-query keys, per station and member: posts and comments carry the
// caller's own flags (userLiked, userAuthor).
import { useSession } from "@/features/session";
import { useStation } from "@/features/stations";

export const feedKeys = {
  all: ["feed"] as const,
  posts: (stationId: number, userId: number) => ["feed", "posts", stationId, userId] as const,
  postComments: (userId: number, postId: number) => ["feed", "comments", "post", userId, postId] as const,
  activityComments: (userId: number, activityId: number) => ["feed", "comments", "action", userId, activityId] as const,
  activityLikes: (userId: number, activityId: number) => ["feed", "likes", "action", userId, activityId] as const,
};

/** The station and member the feed's calls are made for. */
export function useFeedScope(): { stationId: number; userId: number } {
  const stationId = useStation().id;
  // The feed renders only behind the member guard; a visitor never asks for it.
  const userId = useSession()?.user.id ?? 0;
  return { stationId, userId };
}
