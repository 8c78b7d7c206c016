// Type 5 (spec 001 "Share"): the member's share link, shortened by our own short-link route
// (`{station url}/s/{code}` redirects to /compartilhamento?source=&campaign=), with
// 'Copiar link', the networks' share pages and the browser's own share sheet when it has
// one. After a share or a copy: 'Obrigado por compartilhar.' The credit is the share
// page's, when someone opens the link; taking or copying it pays nothing. Hidden like the
// other bodies when the activity is not open (the panel says why).
import { useState } from "react";
import { TextField } from "@/components/form/fields";
import { useShortLink } from "@/features/activities/api/short-link";
import { toastForError } from "@/lib/api-client";
import type { Activity } from "@/types/api";
import "./share-body.css";

export const SHARE_TYPE = 5;
export const LINK_LABEL = "Seu link de compartilhamento";
export const COPY_TEXT = "Copiar link";
export const SHARE_TEXT = "Compartilhar";
export const LOADING_TEXT = "Gerando seu link...";
export const THANKS_TEXT = "Obrigado por compartilhar.";

/** The networks' share pages for `url`, with the activity's name as the message. */
export function networkLinks(name: string, url: string): { label: string; href: string }[] {
  const link = encodeURIComponent(url);
  const message = encodeURIComponent(`${name} ${url}`);
  return [
    { label: "WhatsApp", href: `https://wa.me/?text=${message}` },
    { label: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${link}` },
    { label: "X (Twitter)", href: `https://twitter.com/intent/tweet?text=${encodeURIComponent(name)}&url=${link}` },
  ];
}

export function ShareBody({ activity }: { activity: Activity }) {
  const open = activity.availability === "open";
  const shortLink = useShortLink(activity.id, open);
  const [thanked, setThanked] = useState(false);

  if (!open) return null;
  if (shortLink.isError) {
    return (
      <p className="share-body__error" role="alert">
        {toastForError(shortLink.error).text}
      </p>
    );
  }
  if (!shortLink.data) {
    return (
      <p className="share-body__loading" role="status">
        {LOADING_TEXT}
      </p>
    );
  }

  const url = shortLink.data.url;
  const thank = () => setThanked(true);
  const copy = () => {
    // Without the clipboard API (an old browser, plain http) the member copies it by hand.
    void navigator.clipboard?.writeText(url).then(thank, () => undefined);
  };
  const shareSheet = () => {
    // Dismissing the sheet rejects: that is no share.
    void navigator.share({ title: activity.name, url }).then(thank, () => undefined);
  };

  return (
    <div className="share-body">
      <div className="share-body__link">
        <TextField label={LINK_LABEL} value={url} readOnly onChange={() => undefined} onFocus={(e) => e.target.select()} />
        <button type="button" className="button button--primary" onClick={copy}>
          {COPY_TEXT}
        </button>
      </div>
      <div className="share-body__networks">
        {networkLinks(activity.name, url).map((network) => (
          <a
            key={network.label}
            className="button button--secondary"
            href={network.href}
            target="_blank"
            rel="noopener noreferrer"
            onClick={thank}
          >
            {network.label}
          </a>
        ))}
        {typeof navigator.share === "function" && (
          <button type="button" className="button button--secondary" onClick={shareSheet}>
            {SHARE_TEXT}
          </button>
        )}
      </div>
      <p className="share-body__thanks" role="status">
        {thanked ? THANKS_TEXT : ""}
      </p>
    </div>
  );
}
