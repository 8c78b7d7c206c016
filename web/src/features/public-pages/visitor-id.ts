// A random id for this browser, so the server counts a shared link's visitor once
// however often they open it.
import { readStoredItem, writeStoredItem } from "@/lib/storage";

export const VISITOR_ID_KEY = "filia.visitor-id";

/** 128 random bits as hex; getRandomValues works on plain-http hosts, randomUUID does not. */
function newVisitorId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** This browser's visitor id, created and remembered on first use. */
export function visitorId(): string {
  const stored = readStoredItem(VISITOR_ID_KEY);
  if (stored) return stored;
  const id = newVisitorId();
  writeStoredItem(VISITOR_ID_KEY, id);
  return id;
}
