import { likesText } from "@/features/feed/feed-text";

interface LikeButtonProps {
  likes: number;
  liked: boolean;
  /** Called with the state asked for; ignored while `busy`. */
  onToggle: (liked: boolean) => void;
  busy?: boolean;
}

/** The like toggle with its count (the count itself moves at once: see api/likes.ts). */
export function LikeButton({ likes, liked, onToggle, busy = false }: LikeButtonProps) {
  return (
    <button
      type="button"
      className={liked ? "feed-action feed-like feed-like--on" : "feed-action feed-like"}
      aria-pressed={liked}
      aria-label={`Curtir: ${likesText(likes)}`}
      aria-disabled={busy}
      onClick={() => {
        if (!busy) onToggle(!liked);
      }}
    >
      <svg className="feed-like__icon" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M12 21s-7.5-4.6-9.6-9.1C.9 8.6 2.9 4.5 6.8 4.5c2.1 0 3.6 1.1 4.2 2.3h2c.6-1.2 2.1-2.3 4.2-2.3 3.9 0 5.9 4.1 4.4 7.4C19.5 16.4 12 21 12 21z" />
      </svg>
      <span className="feed-like__count">{likes}</span>
    </button>
  );
}
