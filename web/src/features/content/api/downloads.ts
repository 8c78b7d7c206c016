// The station's files (docs/decisions.md, "Station content"): GET /downloads/?where[station_id]=
// a page at a time, GET /downloads/{id}. A public file is a plain link to /api/media/...; a
// private one is fetched with the member's token and handed to the browser.
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { contentKeys } from "@/features/content/api/content-keys";
import { useStation } from "@/features/stations";
import { api, API_BASE_PATH } from "@/lib/api-client";
import { getPage, nextPageOffset, type Page } from "@/lib/paging";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import { saveFile } from "@/lib/save-file";
import type { Download, DownloadCard } from "@/types/api";

export const DOWNLOADS_PAGE_SIZE = 20;

export const downloadsListPath = (stationId: number) => `/downloads/?where[station_id]=${stationId}`;

export function downloadsQueryOptions(stationId: number) {
  return infiniteQueryOptions({
    queryKey: contentKeys.downloads(stationId),
    queryFn: ({ pageParam, signal }): Promise<Page<DownloadCard>> =>
      getPage<DownloadCard>(downloadsListPath(stationId), { limit: DOWNLOADS_PAGE_SIZE, offset: pageParam, signal }),
    initialPageParam: 0,
    getNextPageParam: (_last, pages) => nextPageOffset(pages),
  });
}

export function useDownloads() {
  return useInfiniteQuery(downloadsQueryOptions(useStation().id));
}

export function downloadQueryOptions(id: number) {
  return queryOptions({
    queryKey: contentKeys.download(id),
    queryFn: ({ signal }) => api.get<Download>(`/downloads/${id}`, { signal }),
  });
}

export function useDownload(id: number) {
  return useQuery({ ...downloadQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
}

const EXTENSIONS: Record<string, string> = {
  "application/pdf": "pdf",
  "application/zip": "zip",
  "application/msword": "doc",
  "image/png": "png",
  "image/jpeg": "jpg",
};

/** The name the browser saves a download under: its name and its type's extension. */
export function downloadFileName(download: Pick<DownloadCard, "name" | "content_type">): string {
  const extension = EXTENSIONS[download.content_type] ?? "bin";
  return download.name.toLowerCase().endsWith(`.${extension}`) ? download.name : `${download.name}.${extension}`;
}

/** A private download's file, asked for with the member's token and saved. */
export function usePrivateFile(download: Pick<DownloadCard, "name" | "file" | "content_type">) {
  return useMutation({
    mutationFn: async () => {
      // `file` is the path the API gave, under its base path; the client adds that itself.
      const path = download.file.startsWith(API_BASE_PATH) ? download.file.slice(API_BASE_PATH.length) : download.file;
      const { body } = await api.getAnswer<Blob>(path, { file: true });
      return body;
    },
    // The page shows the failure beside the button.
    meta: OWN_ERROR_TEXT,
    onSuccess: (blob) => saveFile(blob, downloadFileName(download)),
  });
}
