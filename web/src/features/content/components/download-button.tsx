// A download's file: a plain link for a public file (its media URL), a button for a private
// one, which asks for the file with the member's token and hands it to the browser.
import { usePrivateFile } from "@/features/content/api/downloads";
import { DOWNLOAD_TEXT, FILE_FAILED_TEXT } from "@/features/content/content-text";
import type { DownloadCard } from "@/types/api";

export function DownloadButton({ download }: { download: DownloadCard }) {
  if (!download.private) {
    return (
      <a className="button button--primary" href={download.file} download target="_blank" rel="noopener noreferrer">
        {DOWNLOAD_TEXT}
      </a>
    );
  }
  return <PrivateDownloadButton download={download} />;
}

function PrivateDownloadButton({ download }: { download: DownloadCard }) {
  const file = usePrivateFile(download);
  return (
    <div className="content-download">
      <button type="button" className="button button--primary" aria-disabled={file.isPending} onClick={() => !file.isPending && file.mutate()}>
        {file.isPending ? "Baixando…" : DOWNLOAD_TEXT}
      </button>
      {file.isError && (
        <p className="content-download__error" role="alert">
          {FILE_FAILED_TEXT}
        </p>
      )}
    </div>
  );
}
