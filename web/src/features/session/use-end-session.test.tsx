import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { useEndSession } from "@/features/session/use-end-session";
import { SESSION_INDEPENDENT } from "@/lib/query-client";
import { getStoredSession } from "@/lib/session-store";
import { signIn } from "@/testing/fixtures";

describe("useEndSession", () => {
  it("forgets the stored session and what was fetched with it, but not the host's station", () => {
    signIn();
    const queryClient = new QueryClient();
    queryClient.setQueryData(["users-points", 1], { points: 10 });
    queryClient.setQueryData(["ops", "me"], { role: "support" });
    queryClient.getQueryCache().build(queryClient, { queryKey: ["stations", 7], meta: SESSION_INDEPENDENT });
    queryClient.setQueryData(["stations", 7], { id: 7 });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useEndSession(), { wrapper });

    result.current();

    expect(getStoredSession()).toBeNull();
    expect(queryClient.getQueryData(["users-points", 1])).toBeUndefined();
    expect(queryClient.getQueryData(["ops", "me"])).toBeUndefined();
    expect(queryClient.getQueryData(["stations", 7])).toEqual({ id: 7 });
  });
});
