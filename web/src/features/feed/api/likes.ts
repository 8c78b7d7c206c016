// Likes (docs/api-feed.md "Likes"), optimistic as the spec asks: the count moves by one at
// once, then the like or unlike call follows; a failure puts back what was shown (and the
// catalogue's toast says why). The server's answer then stands: liking twice changes nothing.
// A read in flight when the count moves is cancelled (its answer predates the like and would
// put the old count back) and made again once the like is settled.
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { feedKeys, useFeedScope } from "@/features/feed/api/feed-keys";
import { updateFeedPost } from "@/features/feed/api/posts";
import type { ActivityLikeRequest, FeedPost, Likes, PostLikeRequest } from "@/features/feed/api/types";
import { api } from "@/lib/api-client";

/** The likes as they are once `liked` is applied by hand. */
export function toggled(current: Likes, liked: boolean): Likes {
  if (current.userLiked === liked) return current;
  return { likes: Math.max(0, current.likes + (liked ? 1 : -1)), userLiked: liked };
}

export function likePost(post: number, liked: boolean): Promise<Likes> {
  const body: PostLikeRequest = { post };
  return liked ? api.post<Likes>("/likes-web", body) : api.put<Likes>("/likes", body);
}

export function likeActivity(action: number, liked: boolean): Promise<Likes> {
  const body: ActivityLikeRequest = { action };
  return liked ? api.post<Likes>("/likes-action", body) : api.put<Likes>("/likes-action", body);
}

/** Cancels the reads of `key` in flight; answers whether there was one, to read again later. */
async function cancelReads(queryClient: QueryClient, key: readonly unknown[]): Promise<boolean> {
  const reading = queryClient.isFetching({ queryKey: key }) > 0;
  await queryClient.cancelQueries({ queryKey: key });
  return reading;
}

/** Likes or unlikes a post of the loaded feed. */
export function usePostLike(post: Pick<FeedPost, "id" | "likes" | "userLiked">) {
  const queryClient = useQueryClient();
  const { stationId, userId } = useFeedScope();
  const key = feedKeys.posts(stationId, userId);
  const set = (likes: Likes) => updateFeedPost(queryClient, key, post.id, (shown) => ({ ...shown, ...likes }));
  return useMutation({
    mutationFn: (liked: boolean) => likePost(post.id, liked),
    onMutate: async (liked) => {
      const reading = await cancelReads(queryClient, key);
      const before: Likes = { likes: post.likes, userLiked: post.userLiked };
      set(toggled(before, liked));
      return { before, reading };
    },
    onError: (_error, _liked, context) => {
      if (context) set(context.before);
    },
    onSuccess: (likes) => set(likes),
    onSettled: (_likes, _error, _liked, context) => {
      if (context?.reading) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

export function activityLikesQueryOptions(userId: number, activityId: number) {
  return queryOptions({
    queryKey: feedKeys.activityLikes(userId, activityId),
    queryFn: ({ signal }) => api.get<Likes>(`/likes/action/${activityId}`, { signal }),
  });
}

export function useActivityLikes(activityId: number) {
  const { userId } = useFeedScope();
  return useQuery(activityLikesQueryOptions(userId, activityId));
}

/** Likes or unlikes an activity (when its comments and likes are on). */
export function useActivityLike(activityId: number) {
  const queryClient = useQueryClient();
  const { userId } = useFeedScope();
  const key = feedKeys.activityLikes(userId, activityId);
  return useMutation({
    mutationFn: (liked: boolean) => likeActivity(activityId, liked),
    onMutate: async (liked) => {
      const reading = await cancelReads(queryClient, key);
      const before = queryClient.getQueryData<Likes>(key);
      if (before) queryClient.setQueryData<Likes>(key, toggled(before, liked));
      return { before, reading };
    },
    onError: (_error, _liked, context) => {
      if (context?.before) queryClient.setQueryData<Likes>(key, context.before);
    },
    onSuccess: (likes) => queryClient.setQueryData<Likes>(key, likes),
    onSettled: (_likes, _error, _liked, context) => {
      if (context?.reading) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
