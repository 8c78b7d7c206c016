// A member's report of another's post or comment (docs/api-feed.md, ours): counted once per
// member; enough of them hide the item until the station's staff review it.
import { useMutation } from "@tanstack/react-query";
import { useToast } from "@/components/toasts/use-toast";
import type { Reported, ReportedKind, ReportRequest } from "@/features/feed/api/types";
import { api } from "@/lib/api-client";

export const REPORT_SENT_TOAST = { title: "Sucesso", text: "Denúncia enviada. Nossa equipe vai analisar." };

export interface ReportTarget {
  kind: ReportedKind;
  id: number;
}

export function report({ kind, id }: ReportTarget, reason: string): Promise<Reported> {
  const body: ReportRequest = reason.trim() === "" ? {} : { reason: reason.trim() };
  return api.post<Reported>(`/${kind === "post" ? "posts" : "comments"}/${id}/report`, body);
}

export function useReport() {
  const showToast = useToast();
  return useMutation({
    mutationFn: ({ target, reason }: { target: ReportTarget; reason: string }) => report(target, reason),
    onSuccess: () => showToast(REPORT_SENT_TOAST),
  });
}
