// Comments (docs/api-feed.md "Comments"): a post's, flat and oldest first; an activity's,
// roots with one level of replies. Lists are read afresh each time their panel opens, and
// after a comment is added or deleted. Failures are the catalogue's toast (spec 001
// section 8: the first message of the answer, else 'Erro interno no servidor').
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { feedKeys, useFeedScope } from "@/features/feed/api/feed-keys";
import { updateFeedPost } from "@/features/feed/api/posts";
import type { FeedComment, NewActivityComment, NewPostComment, NewReply } from "@/features/feed/api/types";
import { api } from "@/lib/api-client";

/** The spec's limit for a comment's text. */
export const COMMENT_MAX_LENGTH = 200;

export function postCommentsQueryOptions(userId: number, postId: number) {
  return queryOptions({
    queryKey: feedKeys.postComments(userId, postId),
    queryFn: ({ signal }) => api.get<FeedComment[]>(`/comments/post/${postId}`, { signal }),
  });
}

/** A post's comments, read again whenever its panel opens (the spec's reload on toggle). */
export function usePostComments(postId: number) {
  const { userId } = useFeedScope();
  return useQuery({ ...postCommentsQueryOptions(userId, postId), refetchOnMount: "always" });
}

export function activityCommentsQueryOptions(userId: number, activityId: number) {
  return queryOptions({
    queryKey: feedKeys.activityComments(userId, activityId),
    queryFn: ({ signal }) => api.get<FeedComment[]>(`/comments/action/${activityId}`, { signal }),
  });
}

export function useActivityComments(activityId: number) {
  const { userId } = useFeedScope();
  return useQuery({ ...activityCommentsQueryOptions(userId, activityId), refetchOnMount: "always" });
}

/** Keeps the post's comment count in the loaded feed in step with its list. */
function useCountPostComments(postId: number) {
  const queryClient = useQueryClient();
  const { stationId, userId } = useFeedScope();
  return (delta: number) =>
    updateFeedPost(queryClient, feedKeys.posts(stationId, userId), postId, (post) => ({
      ...post,
      comments: Math.max(0, post.comments + delta),
    }));
}

export function useAddPostComment(postId: number) {
  const queryClient = useQueryClient();
  const { userId } = useFeedScope();
  const count = useCountPostComments(postId);
  return useMutation({
    mutationFn: (description: string) =>
      api.post<FeedComment>("/comments", { description, post: postId } satisfies NewPostComment),
    onSuccess: async () => {
      count(1);
      await queryClient.invalidateQueries({ queryKey: feedKeys.postComments(userId, postId) });
    },
  });
}

export function useDeletePostComment(postId: number) {
  const queryClient = useQueryClient();
  const { userId } = useFeedScope();
  const count = useCountPostComments(postId);
  return useMutation({
    mutationFn: (commentId: number) => api.delete<void>(`/comments/${commentId}`),
    onSuccess: async () => {
      count(-1);
      await queryClient.invalidateQueries({ queryKey: feedKeys.postComments(userId, postId) });
    },
  });
}

/** A root comment on the activity, or with `commentId` a reply to one. */
export interface ActivityCommentDraft {
  description: string;
  commentId?: number;
}

export function addActivityComment(activityId: number, { description, commentId }: ActivityCommentDraft) {
  if (commentId === undefined) {
    return api.post<FeedComment>("/comments-action", { description, action: activityId } satisfies NewActivityComment);
  }
  const reply: NewReply = { description, action: activityId, comment_id: commentId };
  return api.post<FeedComment>("/sub-comments-action", reply);
}

export function useAddActivityComment(activityId: number) {
  const queryClient = useQueryClient();
  const { userId } = useFeedScope();
  return useMutation({
    mutationFn: (draft: ActivityCommentDraft) => addActivityComment(activityId, draft),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feedKeys.activityComments(userId, activityId) }),
  });
}

/** Deletes one's own comment on the activity; a root takes its replies with it. */
export function useDeleteActivityComment(activityId: number) {
  const queryClient = useQueryClient();
  const { userId } = useFeedScope();
  return useMutation({
    mutationFn: (commentId: number) => api.delete<void>(`/comments/${commentId}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feedKeys.activityComments(userId, activityId) }),
  });
}
