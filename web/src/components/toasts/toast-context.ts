import { createContext } from "react";
import type { Toast } from "@/lib/api-client";

export type ShowToast = (toast: Toast) => void;
export type ShowSnackbar = (text: string) => void;

/** The app's one way to tell the user something passing: a toast, or a one-line snackbar. */
export interface Notifications {
  showToast: ShowToast;
  showSnackbar: ShowSnackbar;
}

export const ToastContext = createContext<Notifications | null>(null);
