import { useContext } from "react";
import { ToastContext, type ShowToast } from "@/components/toasts/toast-context";

/** Shows a toast (title and text) for TOAST_DURATION_MS. */
export function useToast(): ShowToast {
  const showToast = useContext(ToastContext);
  if (showToast === null) throw new Error("useToast must be used inside ToastProvider");
  return showToast;
}
