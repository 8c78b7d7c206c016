// The Mural's posts (docs/api-feed.md "Posts"): the feed a page at a time, newest first
// (a keyset: a post published meanwhile never repeats or shifts what follows), publishing
// text, an image or an uploaded video, and deleting one's own post.
import { useCallback } from "react";
import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { feedKeys, useFeedScope } from "@/features/feed/api/feed-keys";
import type { FeedPage, FeedPost, FeedVideo, NewImagePost, NewTextPost, NewVideoPost } from "@/features/feed/api/types";
import { uploadVideo } from "@/features/feed/api/upload-video";
import { useToast } from "@/components/toasts/use-toast";
import { api, toastForError } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";

/** The spec's page: 3 posts first, then 3 more each time the end of the list is reached. */
export const FEED_PAGE_SIZE = 3;

export function getFeedPage(stationId: number, before: string | null, { signal }: { signal?: AbortSignal } = {}) {
  const query = new URLSearchParams();
  if (before !== null) query.set("before", before);
  query.set("limit", String(FEED_PAGE_SIZE));
  return api.get<FeedPage>(`/posts/${stationId}?${query.toString()}`, { signal });
}

export function useFeed() {
  const { stationId, userId } = useFeedScope();
  return useInfiniteQuery({
    queryKey: feedKeys.posts(stationId, userId),
    queryFn: ({ pageParam, signal }) => getFeedPage(stationId, pageParam, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last: FeedPage) => last.next ?? undefined,
  });
}

/** The posts of every page loaded, each once. */
export function feedPosts(data: InfiniteData<FeedPage> | undefined): FeedPost[] {
  const seen = new Set<number>();
  return (data?.pages ?? []).flatMap((page) => page.posts).filter((post) => !seen.has(post.id) && seen.add(post.id));
}

type FeedData = InfiniteData<FeedPage, string | null>;

/** Changes one post where the loaded feed holds it (likes, comment counts). */
export function updateFeedPost(
  queryClient: QueryClient,
  key: readonly unknown[],
  postId: number,
  change: (post: FeedPost) => FeedPost,
): void {
  queryClient.setQueryData<FeedData>(key, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            posts: page.posts.map((post) => (post.id === postId ? change(post) : post)),
          })),
        }
      : data,
  );
}

/** Reads the feed again, every page loaded so far (the spec's "reloaded to the current limit"). */
export function useRefreshFeed() {
  const queryClient = useQueryClient();
  const { stationId, userId } = useFeedScope();
  return useCallback(
    () => queryClient.invalidateQueries({ queryKey: feedKeys.posts(stationId, userId) }),
    [queryClient, stationId, userId],
  );
}

/** What the post box sends: a text, with an image or a video at most. */
export type PostAttachment =
  | { kind: "image"; base64: string; imageType: string }
  /** `videoId` once uploaded, so publishing again after a failed post does not upload it twice. */
  | { kind: "video"; file: File; videoId?: number };

export interface PostDraft {
  description: string;
  attachment: PostAttachment | null;
  /** Bytes of the video sent so far, while it uploads. */
  onUploadProgress?: (sent: number, total: number) => void;
  /** The upload is whole: the video is processing. */
  onUploaded?: (video: FeedVideo) => void;
  signal?: AbortSignal;
}

export async function publishPost(stationId: number, draft: PostDraft): Promise<FeedPost> {
  const { description, attachment } = draft;
  if (attachment === null) {
    return api.post<FeedPost>("/posts", { description, station_id: stationId } satisfies NewTextPost);
  }
  if (attachment.kind === "image") {
    const body: NewImagePost = {
      base64: attachment.base64,
      imageType: attachment.imageType,
      description,
      station_id: stationId,
    };
    return api.post<FeedPost>("/posts-image", body);
  }
  let videoId = attachment.videoId;
  if (videoId === undefined) {
    const video = await uploadVideo(attachment.file, { onProgress: draft.onUploadProgress, signal: draft.signal });
    draft.onUploaded?.(video);
    videoId = video.id;
  }
  const body: NewVideoPost = { description, video_id: videoId, station_id: stationId };
  return api.post<FeedPost>("/posts-vimeo", body, { signal: draft.signal });
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/**
 * Publishes, then reads the feed again. A failure is the catalogue's toast, but not an
 * upload stopped because the member left the Mural.
 */
export function usePublishPost() {
  const { stationId } = useFeedScope();
  const refreshFeed = useRefreshFeed();
  const showToast = useToast();
  return useMutation({
    mutationFn: (draft: PostDraft) => publishPost(stationId, draft),
    meta: OWN_ERROR_TEXT,
    onError: (error) => {
      if (!isAbort(error)) showToast(toastForError(error));
    },
    onSuccess: () => refreshFeed(),
  });
}

export function useDeletePost() {
  const refreshFeed = useRefreshFeed();
  return useMutation({
    mutationFn: (postId: number) => api.delete<void>(`/posts/${postId}`),
    onSuccess: () => refreshFeed(),
  });
}
