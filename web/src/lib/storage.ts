// Local storage access that never throws: storage can be disabled or full (private
// browsing, quota), and the app must still work, only forgetting what it could not keep.

export function readStoredItem(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStoredItem(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Nothing to do: the value is simply not remembered.
  }
}

export function removeStoredItem(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing to do: there is no storage to clean.
  }
}
