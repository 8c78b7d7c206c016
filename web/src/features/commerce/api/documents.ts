// The member's PDFs (docs/api-commerce.md, "After payment"): an order's receipt and a
// voucher. The server answers the file when it is stored, else 202 with the job that makes
// it: the screen follows that job (GET /api/jobs/{id}) and then asks again.
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useJobState } from "@/features/jobs";
import { api, ApiError, INTERNAL_SERVER_ERROR_TEXT, NO_RESPONSE_STATUS } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import { saveFile } from "@/lib/save-file";
import type { Making } from "@/types/api";

export const receiptPath = (orderId: number) => `/product-orders/${orderId}/receipt`;
export const voucherPdfPath = (code: string) => `/vouchers/${encodeURIComponent(code)}/pdf`;

export const DOCUMENT_FAILED_TEXT = "Não foi possível gerar o PDF. Tente novamente.";

export type DocumentAnswer = { kind: "file"; blob: Blob } | { kind: "making"; jobId: string };

function isMaking(body: unknown): body is Making {
  return typeof body === "object" && body !== null && typeof (body as { job_id?: unknown }).job_id === "string";
}

/** A Blob of any realm (the test environment's fetch makes its own). */
function isBlob(body: unknown): body is Blob {
  return typeof body === "object" && body !== null && typeof (body as Partial<Blob>).arrayBuffer === "function";
}

/** The document (200, a PDF), or the job making it (202, JSON). */
export async function fetchDocument(path: string): Promise<DocumentAnswer> {
  const { body } = await api.getAnswer<unknown>(path, { file: true });
  if (isMaking(body)) return { kind: "making", jobId: body.job_id };
  if (isBlob(body)) return { kind: "file", blob: body };
  throw new ApiError(NO_RESPONSE_STATUS, INTERNAL_SERVER_ERROR_TEXT);
}

export interface DocumentDownload {
  start: () => void;
  /** The job making the document, while there is one to follow. */
  jobId: string | null;
  busy: boolean;
  /** Why the last attempt failed, as the member reads it; null otherwise. */
  error: string | null;
}

function failureText(error: unknown): string {
  if (error instanceof ApiError && error.status > 0 && error.status < 500) return error.message;
  return DOCUMENT_FAILED_TEXT;
}

/**
 * Downloads a document: asks for it, follows the job that makes it when the server answers
 * 202, asks again once that job succeeded, and saves the file as `fileName`.
 */
export function useDocumentDownload(path: string, fileName: string): DocumentDownload {
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useJobState(jobId);
  const ask = useMutation({
    mutationFn: () => fetchDocument(path),
    meta: OWN_ERROR_TEXT,
    onSuccess: (answer) => {
      if (answer.kind === "file") {
        setJobId(null);
        saveFile(answer.blob, fileName);
      } else {
        setJobId(answer.jobId);
      }
    },
    onError: () => setJobId(null),
  });
  const { mutate } = ask;
  const jobSucceeded = jobId !== null && job.state === "succeeded";
  useEffect(() => {
    if (jobSucceeded) mutate();
  }, [jobSucceeded, mutate]);

  const jobFailed = jobId !== null && job.isFinal && job.state !== "succeeded";
  const error = ask.isError ? failureText(ask.error) : jobFailed || (jobId !== null && job.isError) ? DOCUMENT_FAILED_TEXT : null;
  return {
    start: () => mutate(),
    jobId,
    busy: ask.isPending || (jobId !== null && !job.isFinal && !job.isError),
    error,
  };
}
