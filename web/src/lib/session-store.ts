// The signed-in user and token, kept in local storage under one key as {user, token}.
// Components read it through useSession(); other tabs' changes arrive as storage events.
import { readStoredItem, removeStoredItem, writeStoredItem } from "@/lib/storage";
import type { Session } from "@/types/api";

export const SESSION_STORAGE_KEY = "filia.session";

type Listener = () => void;

const listeners = new Set<Listener>();
let cachedRaw: string | null = null;
let cachedSession: Session | null = null;

function parseSession(raw: string | null): Session | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null) return null;
    const { user, token } = value as Partial<Session>;
    if (typeof token !== "string" || typeof user !== "object" || user === null) return null;
    return { user, token };
  } catch {
    return null;
  }
}

/** The stored session; the same object until the stored text changes. */
export function getStoredSession(): Session | null {
  const raw = readStoredItem(SESSION_STORAGE_KEY);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedSession = parseSession(raw);
  }
  return cachedSession;
}

function notifyListeners(): void {
  listeners.forEach((listener) => listener());
}

export function storeSession(session: Session): void {
  writeStoredItem(SESSION_STORAGE_KEY, JSON.stringify(session));
  notifyListeners();
}

export function clearStoredSession(): void {
  removeStoredItem(SESSION_STORAGE_KEY);
  notifyListeners();
}

export function subscribeToSession(listener: Listener): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === SESSION_STORAGE_KEY || event.key === null) listener();
  };
  listeners.add(listener);
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}
