import { useContext } from "react";
import { SnackbarContext, type ShowSnackbar } from "@/components/snackbar/snackbar-context";

/** Shows a one-line message for SNACKBAR_DURATION_MS; a new one replaces the current one. */
export function useSnackbar(): ShowSnackbar {
  const showSnackbar = useContext(SnackbarContext);
  if (showSnackbar === null) throw new Error("useSnackbar must be used inside SnackbarProvider");
  return showSnackbar;
}
