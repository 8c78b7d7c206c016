// Comments and likes on an activity (spec 001 "Comments and likes on activities"), shown
// by the activity's page when its comments_and_likes_enabled is on: the like toggle, and
// a panel of root comments with one level of replies. A visitor is asked to log in or
// sign up instead.
import { useId, useState } from "react";
import { Link } from "react-router";
import { useAddActivityComment, useActivityComments, useDeleteActivityComment } from "@/features/feed/api/comments";
import { useActivityLike, useActivityLikes } from "@/features/feed/api/likes";
import type { FeedComment } from "@/features/feed/api/types";
import { Collapsible } from "@/features/feed/components/collapsible";
import { CommentInput } from "@/features/feed/components/comment-input";
import { CommentItem } from "@/features/feed/components/comment-item";
import { LikeButton } from "@/features/feed/components/like-button";
import { NO_COMMENTS_TEXT, NO_REPLIES_TEXT } from "@/features/feed/feed-text";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { useSession } from "@/features/session";
import "./feed.css";

const COMMENTS_TITLE = "Comentários";

export function ActivityComments({ activityId }: { activityId: number }) {
  const signedIn = useSession() !== null;
  return (
    <section className="feed-activity" aria-label="Comentários e curtidas">
      {signedIn ? <MemberPanel activityId={activityId} /> : <VisitorNotice />}
    </section>
  );
}

function VisitorNotice() {
  return (
    <p className="feed-activity__notice" role="note">
      Para comentar e curtir, <Link to="/login">entre na sua conta</Link> ou <Link to="/cadastrar">cadastre-se</Link>.
    </p>
  );
}

function MemberPanel({ activityId }: { activityId: number }) {
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const likes = useActivityLikes(activityId);
  const like = useActivityLike(activityId);
  useErrorToast(likes.error);

  return (
    <>
      <div className="feed-actions">
        {likes.data && (
          <LikeButton
            likes={likes.data.likes}
            liked={likes.data.userLiked}
            busy={like.isPending}
            onToggle={(liked) => like.mutate(liked)}
          />
        )}
        <button
          type="button"
          className="feed-action"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((current) => !current)}
        >
          {COMMENTS_TITLE}
        </button>
      </div>
      <Collapsible open={open} id={panelId} label={COMMENTS_TITLE}>
        <CommentList activityId={activityId} />
      </Collapsible>
    </>
  );
}

function CommentList({ activityId }: { activityId: number }) {
  const comments = useActivityComments(activityId);
  const add = useAddActivityComment(activityId);
  const remove = useDeleteActivityComment(activityId);
  useErrorToast(comments.error);
  const deleteComment = (id: number) => remove.mutateAsync(id);

  let list;
  if (comments.data) {
    list =
      comments.data.length === 0 ? (
        <p className="feed-muted">{NO_COMMENTS_TEXT}</p>
      ) : (
        <ul className="feed-comment-list" aria-label="Comentários da atividade">
          {comments.data.map((comment) => (
            <li key={comment.id}>
              <CommentItem comment={comment} onDelete={() => deleteComment(comment.id)}>
                <Replies
                  root={comment}
                  onDelete={deleteComment}
                  onReply={(description) => add.mutateAsync({ description, commentId: comment.id })}
                  busy={add.isPending}
                />
              </CommentItem>
            </li>
          ))}
        </ul>
      );
  } else if (comments.isPending) {
    list = (
      <p className="feed-muted" role="status">
        Carregando comentários...
      </p>
    );
  }

  return (
    <div className="feed-comments">
      <CommentInput
        label="Escreva um comentário"
        busy={add.isPending}
        onSend={(description) => add.mutateAsync({ description })}
      />
      {list}
    </div>
  );
}

interface RepliesProps {
  root: FeedComment;
  onReply: (description: string) => Promise<unknown>;
  onDelete: (id: number) => Promise<unknown>;
  busy: boolean;
}

/** A root comment's replies (one level), behind a toggle, with the box to answer it. */
function Replies({ root, onReply, onDelete, busy }: RepliesProps) {
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const count = root.replies.length;

  return (
    <div className="feed-replies">
      <button
        type="button"
        className="feed-link-button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((current) => !current)}
      >
        {count === 0 ? "Responder" : `Respostas (${count})`}
      </button>
      <Collapsible open={open} id={panelId} label={`Respostas a ${root.user.name}`}>
        {count === 0 ? (
          <p className="feed-muted">{NO_REPLIES_TEXT}</p>
        ) : (
          <ul className="feed-comment-list" aria-label="Respostas">
            {root.replies.map((reply) => (
              <li key={reply.id}>
                <CommentItem comment={reply} onDelete={() => onDelete(reply.id)} />
              </li>
            ))}
          </ul>
        )}
        <CommentInput label="Escreva uma resposta" busy={busy} onSend={onReply} />
      </Collapsible>
    </div>
  );
}
