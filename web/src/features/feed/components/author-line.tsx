import type { FeedAuthor } from "@/features/feed/api/types";
import { postedAt } from "@/features/feed/feed-text";

/** The author's picture (or initial), name and when they wrote it. */
export function AuthorLine({ author, createdAt, nameId }: { author: FeedAuthor; createdAt: string; nameId?: string }) {
  return (
    <div className="feed-author">
      {author.image ? (
        <img className="feed-author__avatar" src={author.image} alt="" loading="lazy" />
      ) : (
        <span className="feed-author__avatar feed-author__avatar--initial" aria-hidden="true">
          {author.name.trim().charAt(0).toUpperCase() || "?"}
        </span>
      )}
      <div className="feed-author__text">
        <span id={nameId} className="feed-author__name">
          {author.name}
        </span>
        <time className="feed-author__time" dateTime={createdAt}>
          {postedAt(createdAt)}
        </time>
      </div>
    </div>
  );
}
