import { describe, expect, it, vi } from "vitest";
import { getPage, nextPageOffset, pagedItems, pagePath } from "@/lib/paging";
import { jsonResponse, pageResponse } from "@/testing/fixtures";

const items = (...ids: number[]) => ids.map((id) => ({ id }));

describe("paging", () => {
  it("adds the page to the path's query", () => {
    expect(pagePath("/actions/?where[user_id]=1", { limit: 24, offset: 48 })).toBe(
      "/actions/?where[user_id]=1&limit=24&offset=48",
    );
    expect(pagePath("/public-actions/7", { limit: 10, offset: 0 })).toBe("/public-actions/7?limit=10&offset=0");
  });

  it("reads the whole list's count from X-Total-Count", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(pageResponse(items(1, 2), 30))));

    await expect(getPage("/actions/", { limit: 2, offset: 4 })).resolves.toEqual({ items: items(1, 2), total: 30 });
  });

  it("takes an answer without X-Total-Count for the rest of the list", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(jsonResponse(items(1, 2)))));

    await expect(getPage("/actions/", { limit: 24, offset: 24 })).resolves.toEqual({ items: items(1, 2), total: 26 });
  });

  it("asks for the next page until the list is whole", () => {
    expect(nextPageOffset([{ items: items(1, 2), total: 5 }])).toBe(2);
    expect(nextPageOffset([{ items: items(1, 2), total: 5 }, { items: items(3, 4), total: 5 }])).toBe(4);
    expect(nextPageOffset([{ items: items(1, 2), total: 4 }, { items: items(3, 4), total: 4 }])).toBeUndefined();
    // A list that shrank while it was read ends at its first empty page.
    expect(nextPageOffset([{ items: items(1, 2), total: 5 }, { items: [], total: 5 }])).toBeUndefined();
  });

  it("shows an item once when a shift of the list repeats it on the next page", () => {
    expect(pagedItems([{ items: items(1, 2), total: 4 }, { items: items(2, 3), total: 4 }])).toEqual(items(1, 2, 3));
    expect(pagedItems(undefined)).toEqual([]);
  });
});
