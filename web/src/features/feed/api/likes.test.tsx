import { QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { beforeEach, describe, expect, it } from "vitest";
import { useActivityLike, useActivityLikes, usePostLike } from "@/features/feed/api/likes";
import { feedPosts, useFeed } from "@/features/feed/api/posts";
import {
  activityLikesCall,
  buildPost,
  feedCall,
  feedResponse,
  LIKE_ACTIVITY_CALL,
  LIKE_POST_CALL,
  likesResponse,
} from "@/features/feed/testing/feed-fixtures";
import { StationContext } from "@/features/stations";
import { createQueryClient } from "@/lib/query-client";
import { buildStation, signIn } from "@/testing/fixtures";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

function wrapper() {
  const queryClient = createQueryClient(() => undefined);
  return function Wrapper({ children }: { children: ReactNode }) {
    return (
      <QueryClientProvider client={queryClient}>
        <StationContext value={buildStation()}>{children}</StationContext>
      </QueryClientProvider>
    );
  };
}

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** Answers `answers` in turn, the last one again once they run out. */
function inTurn(...answers: Array<() => Response | Promise<Response>>): ApiHandler {
  let calls = 0;
  return () => {
    const answer = answers[Math.min(calls, answers.length - 1)];
    calls += 1;
    if (!answer) throw new Error("no answer");
    return answer();
  };
}

/** Lets pending promises and react-query's notifications run. */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

/** The feed and the like of its first post, as a post card uses them. */
function renderFeedWithLike() {
  return renderHook(
    () => {
      const feed = useFeed();
      const post = feedPosts(feed.data)[0] ?? buildPost();
      return { feed, post, like: usePostLike(post) };
    },
    { wrapper: wrapper() },
  );
}

beforeEach(() => {
  signIn();
});

describe("usePostLike", () => {
  it("cancels a read of the feed in flight, so its older count does not overwrite the like, and reads again", async () => {
    const staleRead = deferred<Response>();
    const liked = deferred<Response>();
    const api = stubApi({
      [feedCall()]: inTurn(
        () => feedResponse([buildPost({ likes: 12 })]),
        () => staleRead.promise,
        () => feedResponse([buildPost({ likes: 13, userLiked: true })]),
      ),
      [LIKE_POST_CALL]: () => liked.promise,
    });
    const { result } = renderFeedWithLike();
    await waitFor(() => expect(result.current.post.likes).toBe(12));

    // A read of the feed starts (another post published, say), then the member likes.
    act(() => void result.current.feed.refetch());
    await waitFor(() => expect(api.callsTo(feedCall())).toHaveLength(2));
    act(() => result.current.like.mutate(true));
    await waitFor(() => expect(result.current.post).toMatchObject({ likes: 13, userLiked: true }));

    // The read answers what it found before the like.
    staleRead.resolve(feedResponse([buildPost({ likes: 12, userLiked: false })]));
    await waitFor(() => expect(result.current.feed.isFetching).toBe(false));
    await settle();
    expect(result.current.post).toMatchObject({ likes: 13, userLiked: true });

    liked.resolve(likesResponse({ likes: 13, userLiked: true }));
    await waitFor(() => expect(api.callsTo(feedCall())).toHaveLength(3));
    await waitFor(() => expect(result.current.feed.isFetching).toBe(false));
    expect(result.current.post).toMatchObject({ likes: 13, userLiked: true });
    expect(api.bodiesOf(LIKE_POST_CALL)).toEqual([{ post: 41 }]);
  });

  it("reads the feed no more when no read was in flight", async () => {
    const api = stubApi({
      [feedCall()]: () => feedResponse([buildPost({ likes: 12 })]),
      [LIKE_POST_CALL]: () => likesResponse({ likes: 20, userLiked: true }),
    });
    const { result } = renderFeedWithLike();
    await waitFor(() => expect(result.current.post.likes).toBe(12));

    act(() => result.current.like.mutate(true));

    await waitFor(() => expect(result.current.like.isSuccess).toBe(true));
    expect(result.current.post).toMatchObject({ likes: 20, userLiked: true });
    await settle();
    expect(api.callsTo(feedCall())).toHaveLength(1);
  });
});

describe("useActivityLike", () => {
  it("cancels a read of the likes in flight and reads them again once liked", async () => {
    const staleRead = deferred<Response>();
    const api = stubApi({
      [activityLikesCall(5)]: inTurn(
        () => likesResponse({ likes: 2, userLiked: false }),
        () => staleRead.promise,
        () => likesResponse({ likes: 3, userLiked: true }),
      ),
      [LIKE_ACTIVITY_CALL]: () => likesResponse({ likes: 3, userLiked: true }),
    });
    const { result } = renderHook(() => ({ likes: useActivityLikes(5), like: useActivityLike(5) }), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.likes.data?.likes).toBe(2));

    act(() => void result.current.likes.refetch());
    await waitFor(() => expect(api.callsTo(activityLikesCall(5))).toHaveLength(2));
    act(() => result.current.like.mutate(true));
    await waitFor(() => expect(api.callsTo(LIKE_ACTIVITY_CALL)).toHaveLength(1));
    staleRead.resolve(likesResponse({ likes: 2, userLiked: false }));

    await waitFor(() => expect(api.callsTo(activityLikesCall(5))).toHaveLength(3));
    await waitFor(() => expect(result.current.likes.isFetching).toBe(false));
    expect(result.current.likes.data).toEqual({ likes: 3, userLiked: true });
  });
});
