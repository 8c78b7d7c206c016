// Hands the browser a file fetched with the member's token (a receipt, a private download):
// such a file cannot be a plain link, which would go without the Authorization header.

/** Hands the browser a file to save, named `fileName`. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; the address is freed once it has been read.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
