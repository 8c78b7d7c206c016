// Lists the API answers a page at a time: `limit` and `offset` in the query, the number of
// all matches in the answer's X-Total-Count header.
import { api } from "@/lib/api-client";

export const TOTAL_COUNT_HEADER = "X-Total-Count";

/** One page of a list, and how many items the whole list holds. */
export interface Page<T> {
  items: T[];
  total: number;
}

export interface PageRequest {
  limit: number;
  offset: number;
  signal?: AbortSignal;
}

/** `path` with the page's limit and offset added to its query. */
export function pagePath(path: string, { limit, offset }: Pick<PageRequest, "limit" | "offset">): string {
  return `${path}${path.includes("?") ? "&" : "?"}limit=${limit}&offset=${offset}`;
}

/** A page of the list at `path`. An answer without X-Total-Count holds the rest of the list. */
export async function getPage<T>(path: string, request: PageRequest): Promise<Page<T>> {
  const { body, headers } = await api.getAnswer<T[]>(pagePath(path, request), { signal: request.signal });
  const total = Number(headers.get(TOTAL_COUNT_HEADER) ?? Number.NaN);
  return { items: body, total: Number.isInteger(total) ? total : request.offset + body.length };
}

/**
 * The offset of the page after `pages` (react-query's getNextPageParam), or undefined once
 * the list is whole. An empty page ends it too, should the list shrink while it is read.
 */
export function nextPageOffset(pages: readonly Page<unknown>[]): number | undefined {
  const last = pages.at(-1);
  const loaded = pages.reduce((count, page) => count + page.items.length, 0);
  return last && last.items.length > 0 && loaded < last.total ? loaded : undefined;
}

/**
 * The items of every page loaded, each once: an item published meanwhile shifts the list,
 * so the next page may start with the last one already shown.
 */
export function pagedItems<T extends { id: number }>(pages: readonly Page<T>[] | undefined): T[] {
  const seen = new Set<number>();
  return (pages ?? []).flatMap((page) => page.items).filter((item) => !seen.has(item.id) && seen.add(item.id));
}
