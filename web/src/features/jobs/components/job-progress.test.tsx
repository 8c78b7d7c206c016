import { render, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { JobProgress } from "@/features/jobs/components/job-progress";
import {
  buildJob,
  createQueryWrapper,
  DEMO_JOB_ID,
  elapse,
  jobNotFoundResponse,
  stubFetchAnswers,
} from "@/features/jobs/testing/job-fixtures";
import { jsonResponse } from "@/testing/fixtures";
import type { Job } from "@/types/api";

const POLL_INTERVAL_MS = 500;

function renderJobProgress() {
  render(
    <JobProgress jobId={DEMO_JOB_ID} intervalMs={POLL_INTERVAL_MS}>
      {(result) => <a href={(result as { url: string }).url}>Baixar o comprovante</a>}
    </JobProgress>,
    { wrapper: createQueryWrapper() },
  );
}

function answerJob(job: Partial<Job>) {
  return () => jsonResponse(buildJob(job));
}

describe("JobProgress", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it("shows how far a running job is, then that it is done, with its result", async () => {
    stubFetchAnswers(
      answerJob({ state: "running", progress: 40 }),
      answerJob({ state: "succeeded", progress: 100, result: { url: "/files/receipt-12.pdf" } }),
    );
    renderJobProgress();
    await elapse(0);

    const progressbar = screen.getByRole("progressbar", { name: "Processando..." });
    expect(progressbar).toHaveAttribute("aria-valuenow", "40");
    expect(progressbar).toHaveAttribute("aria-valuemin", "0");
    expect(progressbar).toHaveAttribute("aria-valuemax", "100");
    expect(screen.queryByRole("link")).not.toBeInTheDocument();

    await elapse(POLL_INTERVAL_MS);
    expect(screen.getByRole("status")).toHaveTextContent("Concluído");
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Baixar o comprovante" })).toHaveAttribute("href", "/files/receipt-12.pdf");
  });

  it("shows an indeterminate bar while the progress is not known", async () => {
    stubFetchAnswers(answerJob({ state: "queued", progress: null, started_at: null }));
    renderJobProgress();

    expect(screen.getByRole("progressbar", { name: "Processando..." })).not.toHaveAttribute("aria-valuenow");
    await elapse(0);
    expect(screen.getByRole("progressbar", { name: "Processando..." })).not.toHaveAttribute("aria-valuenow");
  });

  it("keeps showing the bar while the job retries", async () => {
    stubFetchAnswers(answerJob({ state: "retrying", progress: 10, error: "Falha ao gerar o PDF" }));
    renderJobProgress();
    await elapse(0);

    expect(screen.getByRole("progressbar", { name: "Processando..." })).toHaveAttribute("aria-valuenow", "10");
    expect(screen.queryByText("Falha ao gerar o PDF")).not.toBeInTheDocument();
  });

  it("shows the error of a job that failed", async () => {
    stubFetchAnswers(answerJob({ state: "failed", progress: 60, error: "Falha ao gerar o PDF" }));
    renderJobProgress();
    await elapse(0);

    expect(screen.getByRole("status")).toHaveTextContent("Falha ao gerar o PDF");
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
    expect(screen.queryByRole("link")).not.toBeInTheDocument();
  });

  it("shows the catalogue's text for a job that failed without saying why", async () => {
    stubFetchAnswers(answerJob({ state: "failed", error: null }));
    renderJobProgress();
    await elapse(0);

    expect(screen.getByRole("status")).toHaveTextContent("Erro interno no servidor");
  });

  it("says when a job was cancelled", async () => {
    stubFetchAnswers(answerJob({ state: "cancelled", progress: null }));
    renderJobProgress();
    await elapse(0);

    expect(screen.getByRole("status")).toHaveTextContent("Cancelado");
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
  });

  it("shows the API's text for a job it does not find", async () => {
    stubFetchAnswers(jobNotFoundResponse);
    renderJobProgress();
    await elapse(0);

    expect(screen.getByRole("status")).toHaveTextContent("Tarefa não encontrada");
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
  });
});
