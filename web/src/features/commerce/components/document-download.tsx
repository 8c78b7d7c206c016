// A PDF's download button: asks for the document, shows the progress of the job that makes
// it while the server answers 202, then saves the file.
import { useDocumentDownload } from "@/features/commerce/api/documents";
import { JobProgress } from "@/features/jobs";

interface DocumentDownloadProps {
  /** The API path of the document (receiptPath, voucherPdfPath). */
  path: string;
  fileName: string;
  label: string;
  className?: string;
}

export function DocumentDownload({ path, fileName, label, className = "button button--secondary" }: DocumentDownloadProps) {
  const download = useDocumentDownload(path, fileName);
  return (
    <div className="document-download">
      <button type="button" className={className} disabled={download.busy} aria-busy={download.busy} onClick={download.start}>
        {label}
      </button>
      {/* Progress while the job runs; its own failure text is for staff, the member reads the alert below. */}
      {download.busy && download.jobId !== null && <JobProgress jobId={download.jobId} />}
      {download.error !== null && (
        <p className="shop-screen__error" role="alert">
          {download.error}
        </p>
      )}
    </div>
  );
}
