// One post of the Mural: author, text, media, the like toggle with its count, and the
// comments panel; its author may delete it (after the spec's confirmation), others may
// report it.
import { useId, useState } from "react";
import { usePostLike } from "@/features/feed/api/likes";
import { useDeletePost } from "@/features/feed/api/posts";
import type { FeedPost } from "@/features/feed/api/types";
import { AuthorLine } from "@/features/feed/components/author-line";
import { Collapsible } from "@/features/feed/components/collapsible";
import { TrashIcon } from "@/features/feed/components/comment-item";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { LikeButton } from "@/features/feed/components/like-button";
import { PostComments } from "@/features/feed/components/post-comments";
import { PostMedia } from "@/features/feed/components/post-media";
import { ReportDialog } from "@/features/feed/components/report-dialog";
import { DELETE_POST_TITLE, DELETE_QUESTION } from "@/features/feed/feed-text";

export function PostCard({ post }: { post: FeedPost }) {
  const nameId = useId();
  const panelId = useId();
  const [commentsOpen, setCommentsOpen] = useState(false);
  const [dialog, setDialog] = useState<"delete" | "report" | null>(null);
  const like = usePostLike(post);
  const remove = useDeletePost();
  const close = () => setDialog(null);

  return (
    <article className="feed-post" aria-labelledby={nameId}>
      <header className="feed-post__head">
        <AuthorLine author={post.user} createdAt={post.createdAt} nameId={nameId} />
        {post.userAuthor ? (
          <button type="button" className="feed-icon-button" aria-label="Deletar post" onClick={() => setDialog("delete")}>
            <TrashIcon />
          </button>
        ) : (
          <button type="button" className="feed-link-button" onClick={() => setDialog("report")}>
            Denunciar
          </button>
        )}
      </header>
      {post.description !== "" && <p className="feed-post__text">{post.description}</p>}
      <PostMedia post={post} />
      <div className="feed-actions">
        <LikeButton
          likes={post.likes}
          liked={post.userLiked}
          busy={like.isPending}
          onToggle={(liked) => like.mutate(liked)}
        />
        <button
          type="button"
          className="feed-action"
          aria-expanded={commentsOpen}
          aria-controls={panelId}
          onClick={() => setCommentsOpen((open) => !open)}
        >
          Comentários ({post.comments})
        </button>
      </div>
      <Collapsible open={commentsOpen} id={panelId} label={`Comentários do post de ${post.user.name}`}>
        <PostComments postId={post.id} />
      </Collapsible>
      {dialog === "delete" && (
        <ConfirmDialog
          title={DELETE_POST_TITLE}
          cancelLabel="Cancelar"
          confirmLabel="Sim"
          cancelFirst
          busy={remove.isPending}
          onCancel={close}
          onConfirm={() => remove.mutate(post.id, { onSuccess: close, onError: close })}
        >
          <p>{DELETE_QUESTION}</p>
        </ConfirmDialog>
      )}
      {dialog === "report" && <ReportDialog target={{ kind: "post", id: post.id }} onClose={close} />}
    </article>
  );
}
