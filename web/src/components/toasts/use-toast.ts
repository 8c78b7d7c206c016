import { useContext } from "react";
import { ToastContext, type Notifications, type ShowSnackbar, type ShowToast } from "@/components/toasts/toast-context";

function useNotifications(): Notifications {
  const notifications = useContext(ToastContext);
  if (notifications === null) throw new Error("useToast and useSnackbar must be used inside ToastProvider");
  return notifications;
}

/** Shows a toast (title and text) for TOAST_DURATION_MS; toasts stack. */
export function useToast(): ShowToast {
  return useNotifications().showToast;
}

/** Shows a one-line message for SNACKBAR_DURATION_MS; a new one replaces the current one. */
export function useSnackbar(): ShowSnackbar {
  return useNotifications().showSnackbar;
}
