import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { MailingListLink } from "@/types/api";

export type MailingListAction = "subscribe" | "unsubscribe";

/** Subscribe answers nothing on success. */
async function subscribe(link: MailingListLink): Promise<boolean> {
  const answer = await api.put<unknown>("/e-mail-subscribe", link);
  return answer === undefined || answer === null || answer === "";
}

/** Unsubscribe answers a list whose first element is 0 on failure. */
async function unsubscribe(link: MailingListLink): Promise<boolean> {
  const answer = await api.put<unknown>("/e-mail-unsubscribe", link);
  return Array.isArray(answer) && answer.length > 0 && answer[0] !== 0;
}

/** Whether the mailing-list link did what it says; an answer refused by the API throws. */
export function applyMailingListLink(action: MailingListAction, link: MailingListLink): Promise<boolean> {
  return action === "subscribe" ? subscribe(link) : unsubscribe(link);
}

/** A query: the page acts once on arrival, and both calls are idempotent. */
export function mailingListQueryOptions(action: MailingListAction, link: MailingListLink) {
  return queryOptions({
    queryKey: ["mailing-list", action, link.id, link.hash],
    queryFn: () => applyMailingListLink(action, link),
    staleTime: Infinity,
  });
}
