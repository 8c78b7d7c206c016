import { focusManager, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BALANCE_REFRESH_INTERVAL_MS, useWalletBalance } from "@/features/wallet/api/get-balance";
import { useEarnedTransactions, useSpentTransactions } from "@/features/wallet/api/get-transactions";
import { elapse } from "@/features/jobs/testing/job-fixtures";
import { createQueryClient } from "@/lib/query-client";
import { buildEarnTransaction, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { stubApi } from "@/testing/stub-api";
import type { EarnTransaction, WalletBalance } from "@/types/api";

const BALANCE = "GET /api/users-points/1";
const EARNED = "GET /api/earn-points-transactions/?where[user_id]=1&page=1";
const SPENT = "GET /api/use-points-transactions/?where[user_id]=1&page=1";

function wrapper() {
  const queryClient = createQueryClient(() => undefined);
  return function Wrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  };
}

beforeEach(() => {
  signIn();
});

afterEach(() => {
  focusManager.setFocused(undefined);
});

describe("useWalletBalance", () => {
  it("asks for the signed-in member's balance again every 30 s", async () => {
    vi.useFakeTimers();
    let cents = 0;
    const api = stubApi({
      [BALANCE]: () => {
        cents += 5000;
        return jsonResponse(buildWalletBalance({ points_cents: cents }));
      },
    });
    const { result } = renderHook(() => useWalletBalance(), { wrapper: wrapper() });

    await elapse(0);
    expect(result.current.data?.points_cents).toBe(5000);
    await elapse(BALANCE_REFRESH_INTERVAL_MS - 10);
    expect(api.callsTo(BALANCE)).toHaveLength(1);
    await elapse(10);
    expect(api.callsTo(BALANCE)).toHaveLength(2);
    expect(result.current.data?.points_cents).toBe(10000);
    await elapse(2 * BALANCE_REFRESH_INTERVAL_MS);
    expect(api.callsTo(BALANCE)).toHaveLength(4);
  });

  it("asks again when the window regains focus", async () => {
    const api = stubApi({ [BALANCE]: () => jsonResponse(buildWalletBalance()) });
    const { result } = renderHook(() => useWalletBalance(), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));

    act(() => focusManager.setFocused(false));
    act(() => focusManager.setFocused(true));

    await waitFor(() => expect(api.callsTo(BALANCE)).toHaveLength(2));
  });
});

describe("the statement's lists follow the balance", () => {
  /** The balance answers `balance()` each time; the lists answer what they hold now. */
  function stubStatement(balance: () => WalletBalance, credits: () => EarnTransaction[] = () => []) {
    return stubApi({
      [BALANCE]: () => jsonResponse(balance()),
      [EARNED]: () => jsonResponse(credits()),
      [SPENT]: () => jsonResponse([]),
    });
  }

  function renderStatementHooks() {
    return renderHook(
      () => ({ balance: useWalletBalance(), earned: useEarnedTransactions(1), spent: useSpentTransactions(1) }),
      { wrapper: wrapper() },
    );
  }

  it("asks for both lists again when the refreshed balance changed", async () => {
    vi.useFakeTimers();
    let current = buildWalletBalance({ points_cents: 0, pending_cents: 5000 });
    let credit = buildEarnTransaction({ state: "pending", released_at: null });
    const api = stubStatement(() => current, () => [credit]);
    const { result } = renderStatementHooks();
    await elapse(0);
    expect(result.current.earned.data?.pages[0]?.[0]?.state).toBe("pending");

    // The scheduled release moves the credit from pending to the balance.
    current = buildWalletBalance({ points_cents: 5000, pending_cents: 0 });
    credit = buildEarnTransaction({ state: "available" });
    await elapse(BALANCE_REFRESH_INTERVAL_MS);

    expect(result.current.balance.data?.points_cents).toBe(5000);
    expect(api.callsTo(EARNED)).toHaveLength(2);
    expect(api.callsTo(SPENT)).toHaveLength(2);
    expect(result.current.earned.data?.pages[0]?.[0]?.state).toBe("available");
  });

  it("asks again when only what waits for release changed", async () => {
    vi.useFakeTimers();
    let current = buildWalletBalance({ pending_cents: 0 });
    const api = stubStatement(() => current);
    renderStatementHooks();
    await elapse(0);

    current = buildWalletBalance({ pending_cents: 5000 });
    await elapse(BALANCE_REFRESH_INTERVAL_MS);

    expect(api.callsTo(EARNED)).toHaveLength(2);
    expect(api.callsTo(SPENT)).toHaveLength(2);
  });

  it("leaves the lists alone while the balance stays the same", async () => {
    vi.useFakeTimers();
    const api = stubStatement(() => buildWalletBalance());
    renderStatementHooks();
    await elapse(0);

    await elapse(2 * BALANCE_REFRESH_INTERVAL_MS);

    expect(api.callsTo(BALANCE)).toHaveLength(3);
    expect(api.callsTo(EARNED)).toHaveLength(1);
    expect(api.callsTo(SPENT)).toHaveLength(1);
  });
});
