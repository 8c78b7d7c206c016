import { createContext } from "react";
import type { Toast } from "@/lib/api-client";

export type ShowToast = (toast: Toast) => void;

export const ToastContext = createContext<ShowToast | null>(null);
