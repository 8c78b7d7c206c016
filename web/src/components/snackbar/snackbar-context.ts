import { createContext } from "react";

export type ShowSnackbar = (text: string) => void;

export const SnackbarContext = createContext<ShowSnackbar | null>(null);
