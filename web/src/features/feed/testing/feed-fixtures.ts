// The feed's answers as docs/api-feed.md describes them, the calls of the member Maria
// (id 1) on the demo station (id 7), and a stand-in for XMLHttpRequest (jsdom's sends
// nothing) that the video upload's chunks go through.
import { vi } from "vitest";
import type { FeedComment, FeedPage, FeedPost, FeedVideo, Likes, ReportedItem } from "@/features/feed/api/types";
import { jsonResponse } from "@/testing/fixtures";

export const FEED_PATH = "/homepage/feed";

export const feedCall = (before?: string) =>
  before === undefined ? "GET /api/posts/7?limit=3" : `GET /api/posts/7?before=${encodeURIComponent(before)}&limit=3`;
export const POST_TEXT_CALL = "POST /api/posts";
export const POST_IMAGE_CALL = "POST /api/posts-image";
export const POST_VIDEO_CALL = "POST /api/posts-vimeo";
export const LIKE_POST_CALL = "POST /api/likes-web";
export const UNLIKE_POST_CALL = "PUT /api/likes";
export const CREATE_UPLOAD_CALL = "POST /api/uploads/videos";
export const postCommentsCall = (postId: number) => `GET /api/comments/post/${postId}`;
export const ADD_POST_COMMENT_CALL = "POST /api/comments";
export const deleteCommentCall = (id: number) => `DELETE /api/comments/${id}`;
export const deletePostCall = (id: number) => `DELETE /api/posts/${id}`;
export const reportPostCall = (id: number) => `POST /api/posts/${id}/report`;
export const reportCommentCall = (id: number) => `POST /api/comments/${id}/report`;
export const videoCall = (id: number) => `GET /api/videos/${id}`;
export const activityLikesCall = (id: number) => `GET /api/likes/action/${id}`;
export const LIKE_ACTIVITY_CALL = "POST /api/likes-action";
export const UNLIKE_ACTIVITY_CALL = "PUT /api/likes-action";
export const activityCommentsCall = (id: number) => `GET /api/comments/action/${id}`;
export const ADD_ACTIVITY_COMMENT_CALL = "POST /api/comments-action";
export const ADD_REPLY_CALL = "POST /api/sub-comments-action";

export const MARIA = { id: 1, name: "Maria Silva", image: null };
export const JOAO = { id: 2, name: "João Souza", image: "/api/media/users/2/a.jpg" };

export function buildPost(overrides: Partial<FeedPost> = {}): FeedPost {
  return {
    id: 41,
    description: "Bom dia, clube!",
    user: JOAO,
    image: null,
    video: null,
    likes: 12,
    comments: 3,
    userLiked: false,
    userAuthor: false,
    published: true,
    createdAt: "2026-12-01T12:00:00Z",
    ...overrides,
  };
}

/** Posts with ids counting down from `firstId` (newest first), "Post 1", "Post 2", ... */
export function buildPosts(count: number, firstId = 100, start = 1): FeedPost[] {
  return Array.from({ length: count }, (_, index) =>
    buildPost({ id: firstId - index, description: `Post ${start + index}` }),
  );
}

export function buildVideo(overrides: Partial<FeedVideo> = {}): FeedVideo {
  return {
    id: 9,
    status: "ready",
    size: 5_242_880,
    received: 5_242_880,
    url: "/api/media/feed/videos/01jv.mp4",
    poster: "/api/media/feed/videos/01jv.jpg",
    durationMs: 6000,
    jobId: null,
    failure: null,
    ...overrides,
  };
}

export function buildComment(overrides: Partial<FeedComment> = {}): FeedComment {
  return {
    id: 5,
    description: "Que legal!",
    user: JOAO,
    userAuthor: false,
    parentId: null,
    createdAt: "2026-12-01T13:00:00Z",
    replies: [],
    ...overrides,
  };
}

export function buildReportedItem(overrides: Partial<ReportedItem> = {}): ReportedItem {
  return {
    kind: "post",
    id: 41,
    stationId: 1,
    description: "Texto denunciado",
    image: null,
    video: null,
    author: JOAO,
    reports: 3,
    reasons: ["Ofensivo", "Spam"],
    hidden: true,
    removed: false,
    firstReportedAt: "2026-12-01T14:00:00Z",
    reviewedAt: null,
    decision: null,
    ...overrides,
  };
}

export const feedPage = (posts: FeedPost[], next: string | null = null): FeedPage => ({ posts, next });
export const feedResponse = (posts: FeedPost[], next: string | null = null) => jsonResponse(feedPage(posts, next));
export const likesResponse = (likes: Likes) => jsonResponse(likes);

/** What a chunk request gets: an answer, or a dropped connection. */
export type ChunkAnswer = { status: number; body: unknown } | "network-error";

/** A chunk request as the server would have received it. */
export interface SentChunk {
  method: string;
  url: string;
  headers: Record<string, string>;
  size: number;
}

/**
 * Replaces XMLHttpRequest: each request sent is answered by `answer` (called with what was
 * sent; a promise holds the answer back), reporting its whole body as uploaded first.
 * `progress` reports bytes sent on the requests still waiting, as a slow network would.
 */
export function stubChunkRequests(answer: (chunk: SentChunk, index: number) => ChunkAnswer | Promise<ChunkAnswer>) {
  const sent: SentChunk[] = [];
  const waiting = new Set<(loaded: number) => void>();
  let aborted = 0;

  class FakeXhr {
    status = 0;
    responseText = "";
    readonly upload: { onprogress: ((event: { loaded: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private method = "";
    private url = "";
    private readonly headers: Record<string, string> = {};
    private done = false;

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }

    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }

    abort() {
      if (this.done) return;
      this.done = true;
      aborted += 1;
      this.onabort?.();
    }

    send(body: Blob) {
      const chunk: SentChunk = { method: this.method, url: this.url, headers: { ...this.headers }, size: body.size };
      const report = (loaded: number) => {
        if (!this.done) this.upload.onprogress?.({ loaded });
      };
      waiting.add(report);
      void Promise.resolve(answer(chunk, sent.push(chunk) - 1)).then((outcome) =>
        setTimeout(() => {
          waiting.delete(report);
          if (this.done) return;
          this.done = true;
          if (outcome === "network-error") {
            this.onerror?.();
            return;
          }
          this.upload.onprogress?.({ loaded: body.size });
          this.status = outcome.status;
          this.responseText = JSON.stringify(outcome.body);
          this.onload?.();
        }, 0),
      );
    }
  }

  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  return {
    sent,
    /** Reports `loaded` bytes sent on every request still waiting for its answer. */
    progress: (loaded: number) => waiting.forEach((report) => report(loaded)),
    /** How many requests were cancelled. */
    aborted: () => aborted,
  };
}
