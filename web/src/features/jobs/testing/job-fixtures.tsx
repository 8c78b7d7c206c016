import { QueryClientProvider } from "@tanstack/react-query";
import { act } from "@testing-library/react";
import type { ReactNode } from "react";
import { vi } from "vitest";
import { createQueryClient } from "@/lib/query-client";
import { jsonResponse } from "@/testing/fixtures";
import type { Job } from "@/types/api";

export const DEMO_JOB_ID = "01JD3XKQ7M2V9S8T4R6P5N3B1C";
export const DEMO_JOB_PATH = `/api/jobs/${DEMO_JOB_ID}`;

export function buildJob(overrides: Partial<Job> = {}): Job {
  return {
    id: DEMO_JOB_ID,
    kind: "voucher.pdf",
    state: "running",
    attempts: 1,
    max_attempts: 5,
    run_at: "2026-11-21T10:00:00Z",
    started_at: "2026-11-21T10:00:01Z",
    finished_at: null,
    progress: 40,
    result: null,
    error: null,
    ...overrides,
  };
}

export const jobNotFoundResponse = () => jsonResponse({ error: "Tarefa não encontrada" }, 404);

/** Stubs fetch with these answers in turn; the last one keeps answering once they run out. */
export function stubFetchAnswers(firstAnswer: () => Response, ...laterAnswers: Array<() => Response>) {
  const answers = [firstAnswer, ...laterAnswers];
  let calls = 0;
  const fetchMock = vi.fn((_url: string, _init?: RequestInit) => {
    const answer = answers[Math.min(calls, answers.length - 1)] ?? firstAnswer;
    calls += 1;
    return Promise.resolve(answer());
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** A fresh react-query client (the app's retry rules) around what a test renders. */
export function createQueryWrapper() {
  const queryClient = createQueryClient(() => undefined);
  return function QueryWrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  };
}

// Taken before a test fakes the timers: one real task runs only once every promise has settled.
const realSetTimeout = globalThis.setTimeout;

function settlePromises(): Promise<void> {
  return new Promise((resolve) => realSetTimeout(resolve, 0));
}

/** With fake timers: lets `ms` pass, then lets the requests that fell due answer and re-render. */
export async function elapse(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
    await settlePromises();
    // react-query tells its observers on a timer of its own, a fake millisecond later.
    await vi.advanceTimersByTimeAsync(1);
  });
}
