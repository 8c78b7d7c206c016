// /homepage/downloads/:id: one file with its title, subtitle, description, body and the way
// to download it.
import { Link, useParams } from "react-router";
import { useDownload } from "@/features/content/api/downloads";
import { ContentHtml } from "@/features/content/components/content-html";
import { ContentMissing } from "@/features/content/components/content-missing";
import { DownloadButton } from "@/features/content/components/download-button";
import { BACK_TO_DOWNLOADS_TEXT, MEMBERS_ONLY_TEXT } from "@/features/content/content-text";
import "./content.css";

/** A size as a member reads it: "245 KB", "1,2 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toLocaleString("pt-BR", { maximumFractionDigits: 1 })} MB`;
}

export function DownloadDetailPage() {
  const id = Number(useParams().id);
  const found = useDownload(id);
  if (found.isPending && found.fetchStatus !== "idle") {
    return (
      <p className="content-detail__loading" role="status">
        Carregando arquivo…
      </p>
    );
  }
  if (!found.data) {
    return (
      <ContentMissing
        error={found.error}
        fallback="Arquivo não encontrado"
        back={{ to: "/homepage/downloads", label: BACK_TO_DOWNLOADS_TEXT }}
        onRetry={found.isError ? () => void found.refetch() : undefined}
      />
    );
  }
  const download = found.data;
  return (
    <article className="content-detail">
      <Link className="content-detail__back" to="/homepage/downloads">
        {BACK_TO_DOWNLOADS_TEXT}
      </Link>
      <h1 className="page-title">{download.title}</h1>
      {download.subtitle && <p className="content-detail__subtitle">{download.subtitle}</p>}
      {download.description && <p>{download.description}</p>}
      <ContentHtml className="content-detail__body" html={download.body} />
      <p className="content-detail__file">
        {download.name} · {formatSize(download.size)}
        {download.private && <span className="content-badge">{MEMBERS_ONLY_TEXT}</span>}
      </p>
      <DownloadButton download={download} />
    </article>
  );
}
