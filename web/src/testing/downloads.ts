// Catches the files the app hands the browser to save (an <a download> clicked on a blob:
// address), which jsdom cannot save; undo() puts jsdom back as it was.
import { vi } from "vitest";

export interface SavedFile {
  fileName: string;
  blob: Blob;
}

export function catchDownloads() {
  const saved: SavedFile[] = [];
  const blobs = new Map<string, Blob>();
  let next = 0;
  Object.defineProperty(URL, "createObjectURL", {
    configurable: true,
    value: (blob: Blob) => {
      next += 1;
      const url = `blob:test/${next}`;
      blobs.set(url, blob);
      return url;
    },
  });
  Object.defineProperty(URL, "revokeObjectURL", { configurable: true, value: (url: string) => blobs.delete(url) });
  const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob && this.download) saved.push({ fileName: this.download, blob });
  });
  return {
    saved,
    undo: () => {
      click.mockRestore();
      Reflect.deleteProperty(URL, "createObjectURL");
      Reflect.deleteProperty(URL, "revokeObjectURL");
    },
  };
}
