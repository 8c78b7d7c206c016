// A post's comments, read afresh each time the panel opens: the list, oldest first, and
// the box to add one.
import { useAddPostComment, useDeletePostComment, usePostComments } from "@/features/feed/api/comments";
import { CommentInput } from "@/features/feed/components/comment-input";
import { CommentItem } from "@/features/feed/components/comment-item";
import { NO_COMMENTS_TEXT } from "@/features/feed/feed-text";
import { useErrorToast } from "@/components/toasts/use-error-toast";

export function PostComments({ postId }: { postId: number }) {
  const comments = usePostComments(postId);
  const add = useAddPostComment(postId);
  const remove = useDeletePostComment(postId);
  useErrorToast(comments.error);

  let list;
  if (comments.data) {
    list =
      comments.data.length === 0 ? (
        <p className="feed-muted">{NO_COMMENTS_TEXT}</p>
      ) : (
        <ul className="feed-comment-list" aria-label="Comentários do post">
          {comments.data.map((comment) => (
            <li key={comment.id}>
              <CommentItem comment={comment} onDelete={() => remove.mutateAsync(comment.id)} />
            </li>
          ))}
        </ul>
      );
  } else if (comments.isPending) {
    list = <p className="feed-muted" role="status">Carregando comentários...</p>;
  }

  return (
    <div className="feed-comments">
      {list}
      <CommentInput label="Escreva um comentário" busy={add.isPending} onSend={(text) => add.mutateAsync(text)} />
    </div>
  );
}
