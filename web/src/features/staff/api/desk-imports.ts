// A desk's CSV imports (docs/api-services.md "The desk in the console", Imports): staff send
// the file their office exported (cases or appointments), then follow the import's progress
// (polled while queued or running), counts and rejected rows; the desk's latest imports.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { ImportQueued, RejectedRow, ServiceImport } from "@/types/api";

export type { ImportQueued, RejectedRow, ServiceImport };

/** The desks that import: legal and accounting (cases, appointments), health (appointments). */
export type ImportDesk = "legal" | "accounting" | "health";
export type ImportKind = "cases" | "appointments";

/** How often a queued or running import is asked again, in milliseconds. */
export const IMPORT_POLL_MS = 1500;

export const deskImportKeys = {
  list: (stationId: number, desk: ImportDesk) => ["ops", "desk-imports", stationId, desk] as const,
  one: (id: number) => ["ops", "desk-imports", "one", id] as const,
};

export function deskImportsPath(stationId: number, desk: ImportDesk): string {
  return `/ops/stations/${stationId}/desk/${desk}/imports`;
}

export function isRunning(status: string | undefined): boolean {
  return status === "queued" || status === "running";
}

/** The desk's latest imports, newest first. */
export function useDeskImports(stationId: number, desk: ImportDesk) {
  return useQuery({
    queryKey: deskImportKeys.list(stationId, desk),
    queryFn: ({ signal }) => api.get<ServiceImport[]>(deskImportsPath(stationId, desk), { signal }),
  });
}

/** One import, asked again every IMPORT_POLL_MS while it is queued or running. */
export function useDeskImport(id: number | null) {
  return useQuery({
    queryKey: deskImportKeys.one(id ?? 0),
    queryFn: ({ signal }) => api.get<ServiceImport>(`/ops/desk/imports/${id ?? 0}`, { signal }),
    enabled: id !== null,
    refetchInterval: (query) => (isRunning(query.state.data?.status) ? IMPORT_POLL_MS : false),
  });
}

/** Sends a file (multipart: kind and file); the desk's list is read again. */
export function useSendDeskImport(stationId: number, desk: ImportDesk) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file }: { kind: ImportKind; file: File }) => {
      const form = new FormData();
      form.append("kind", kind);
      form.append("file", file);
      return api.post<ImportQueued>(deskImportsPath(stationId, desk), form);
    },
    onSuccess: (queued) => {
      queryClient.setQueryData(deskImportKeys.one(queued.import.id), queued.import);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: deskImportKeys.list(stationId, desk) }),
  });
}
