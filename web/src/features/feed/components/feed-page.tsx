// /homepage/feed (spec 001 "Wall feed (Mural)"): the post box over the station's posts,
// newest first, 3 at a time, the next 3 asked for when the end of the list is half in
// sight. Only where the station has the Mural (`feed_access`); elsewhere the address is
// not found, as the API's 403 would say it is closed.
import { LoadMore } from "@/components/load-more";
import { NotFoundPage } from "@/components/not-found-page";
import { feedPosts, useFeed } from "@/features/feed/api/posts";
import { PostBox } from "@/features/feed/components/post-box";
import { PostCard } from "@/features/feed/components/post-card";
import { FEED_EMPTY_TEXT, FEED_END_TEXT, FEED_FAILED_TEXT, FEED_TITLE } from "@/features/feed/feed-text";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { useStation } from "@/features/stations";
import "./feed.css";

/** The spec's scroll threshold: the end of the list half in sight. */
const END_IN_SIGHT: IntersectionObserverInit = { threshold: 0.5 };

function PostSkeletons({ label }: { label: string }) {
  return (
    <div className="feed-skeletons" role="status" aria-label={label} aria-busy="true">
      {Array.from({ length: 2 }, (_, index) => (
        <span key={index} className="feed-skeletons__post" aria-hidden="true" />
      ))}
    </div>
  );
}

export function FeedPage() {
  const open = useStation().feed_access;
  if (!open) return <NotFoundPage />;
  return (
    <section className="feed-page">
      <h1 className="page-title">{FEED_TITLE}</h1>
      <PostBox />
      <FeedList />
    </section>
  );
}

function FeedList() {
  const feed = useFeed();
  useErrorToast(feed.error);

  if (feed.isPending) return <PostSkeletons label="Carregando posts" />;
  if (feed.isError && !feed.data) {
    return (
      <div className="feed-empty" role="alert">
        <p>{FEED_FAILED_TEXT}</p>
        <button type="button" className="button button--secondary" onClick={() => void feed.refetch()}>
          Tentar novamente
        </button>
      </div>
    );
  }
  const posts = feedPosts(feed.data);
  if (posts.length === 0) return <p className="feed-empty">{FEED_EMPTY_TEXT}</p>;
  return (
    <>
      <ul className="feed-list" aria-label="Posts do mural">
        {posts.map((post) => (
          <li key={post.id}>
            <PostCard post={post} />
          </li>
        ))}
      </ul>
      {feed.isFetchingNextPage && <PostSkeletons label="Carregando mais posts" />}
      {feed.hasNextPage ? (
        <LoadMore
          hasMore
          loading={feed.isFetchingNextPage}
          autoLoad={!feed.isFetchNextPageError}
          observer={END_IN_SIGHT}
          onLoadMore={() => void feed.fetchNextPage()}
          label="Carregar mais posts"
        />
      ) : (
        <p className="feed-end">{FEED_END_TEXT}</p>
      )}
    </>
  );
}
