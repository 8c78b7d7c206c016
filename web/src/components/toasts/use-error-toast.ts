import { useEffect } from "react";
import { useToast } from "@/components/toasts/use-toast";
import { toastForError } from "@/lib/api-client";

/** Shows a failed read's error once as a toast (spec 001 section 8: the first server message, else the generic one). */
export function useErrorToast(error: Error | null): void {
  const showToast = useToast();
  useEffect(() => {
    if (error) showToast(toastForError(error));
  }, [error, showToast]);
}
