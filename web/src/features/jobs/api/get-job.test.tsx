import { focusManager } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DEFAULT_JOB_POLL_INTERVAL_MS,
  FINAL_JOB_STATES,
  isFinalJobState,
  PENDING_JOB_STATES,
  useJobState,
} from "@/features/jobs/api/get-job";
import {
  buildJob,
  createQueryWrapper,
  DEMO_JOB_ID,
  DEMO_JOB_PATH,
  elapse,
  jobNotFoundResponse,
  stubFetchAnswers,
} from "@/features/jobs/testing/job-fixtures";
import { jsonResponse } from "@/testing/fixtures";

function renderJobState(id: string | null | undefined, intervalMs?: number) {
  return renderHook(() => useJobState(id, { intervalMs }), { wrapper: createQueryWrapper() });
}

describe("job states", () => {
  it("tells final states from the ones that may still change", () => {
    expect([...PENDING_JOB_STATES]).toEqual(["queued", "scheduled", "running", "retrying"]);
    expect([...FINAL_JOB_STATES]).toEqual(["succeeded", "failed", "cancelled"]);
    expect(isFinalJobState("succeeded")).toBe(true);
    expect(isFinalJobState("retrying")).toBe(false);
    expect(isFinalJobState(null)).toBe(false);
  });
});

describe("useJobState", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    focusManager.setFocused(undefined);
  });

  it("asks for a running job again every interval", async () => {
    const fetchMock = stubFetchAnswers(() => jsonResponse(buildJob({ state: "running" })));
    const { result } = renderJobState(DEMO_JOB_ID);

    await elapse(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(result.current.state).toBe("running");
    expect(result.current.isFinal).toBe(false);

    await elapse(DEFAULT_JOB_POLL_INTERVAL_MS);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await elapse(3 * DEFAULT_JOB_POLL_INTERVAL_MS);
    expect(fetchMock).toHaveBeenCalledTimes(5);
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(Array(5).fill(DEMO_JOB_PATH));
  });

  it("stops asking once the job is final, even when the window regains focus", async () => {
    const fetchMock = stubFetchAnswers(
      () => jsonResponse(buildJob({ state: "queued", progress: null, started_at: null })),
      () => jsonResponse(buildJob({ state: "running", progress: 50 })),
      () =>
        jsonResponse(
          buildJob({ state: "succeeded", progress: 100, result: { url: "/files/receipt-12.pdf" } }),
        ),
    );
    const { result } = renderJobState(DEMO_JOB_ID, 200);

    await elapse(0);
    expect(result.current.state).toBe("queued");
    await elapse(400);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(result.current.state).toBe("succeeded");
    expect(result.current.isFinal).toBe(true);

    await elapse(10 * 200);
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await elapse(10 * 200);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it("asks for a job that is not final again when the window regains focus", async () => {
    const fetchMock = stubFetchAnswers(() => jsonResponse(buildJob({ state: "running" })));
    renderJobState(DEMO_JOB_ID, 60_000);

    await elapse(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await elapse(0);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("exposes the progress, then the result of a job that succeeded", async () => {
    stubFetchAnswers(
      () => jsonResponse(buildJob({ state: "running", progress: 40 })),
      () =>
        jsonResponse(
          buildJob({
            state: "succeeded",
            progress: 100,
            finished_at: "2026-11-21T10:00:05Z",
            result: { url: "/files/receipt-12.pdf" },
          }),
        ),
    );
    const { result } = renderJobState(DEMO_JOB_ID);

    expect(result.current.isLoading).toBe(true);
    await elapse(0);
    expect(result.current).toMatchObject({ state: "running", progress: 40, result: null, error: null, isLoading: false });

    await elapse(DEFAULT_JOB_POLL_INTERVAL_MS);
    expect(result.current).toMatchObject({
      state: "succeeded",
      isFinal: true,
      progress: 100,
      result: { url: "/files/receipt-12.pdf" },
      error: null,
      isError: false,
    });
    expect(result.current.job?.finished_at).toBe("2026-11-21T10:00:05Z");
  });

  it("exposes the job's error while it retries and once it failed", async () => {
    const fetchMock = stubFetchAnswers(
      () => jsonResponse(buildJob({ state: "retrying", attempts: 2, error: "Falha ao gerar o PDF" })),
      () => jsonResponse(buildJob({ state: "failed", attempts: 5, error: "Falha ao gerar o PDF" })),
    );
    const { result } = renderJobState(DEMO_JOB_ID);

    await elapse(0);
    expect(result.current).toMatchObject({ state: "retrying", isFinal: false, error: "Falha ao gerar o PDF" });
    await elapse(DEFAULT_JOB_POLL_INTERVAL_MS);
    expect(result.current).toMatchObject({
      state: "failed",
      isFinal: true,
      result: null,
      error: "Falha ao gerar o PDF",
      isError: false,
    });

    await elapse(5 * DEFAULT_JOB_POLL_INTERVAL_MS);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("reports an unknown job as an error with the API's text, and stops asking", async () => {
    const fetchMock = stubFetchAnswers(jobNotFoundResponse);
    const { result } = renderJobState(DEMO_JOB_ID);

    await elapse(0);
    expect(result.current).toMatchObject({
      job: undefined,
      state: null,
      isFinal: false,
      isError: true,
      isLoading: false,
      error: "Tarefa não encontrada",
    });

    await elapse(5 * DEFAULT_JOB_POLL_INTERVAL_MS);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it.each([null, undefined, ""])("sends no request without a job id (%j)", async (id) => {
    const fetchMock = stubFetchAnswers(() => jsonResponse(buildJob()));
    const { result } = renderJobState(id);

    await elapse(5 * DEFAULT_JOB_POLL_INTERVAL_MS);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(result.current).toMatchObject({ job: undefined, state: null, isLoading: false, isError: false });
  });
});
