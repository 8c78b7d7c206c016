import { QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useToast } from "@/components/toasts/use-toast";
import { toastForError } from "@/lib/api-client";
import { createQueryClient } from "@/lib/query-client";

/** react-query, with every failed mutation shown as the catalogue's error toast. */
export function QueryProvider({ children }: { children: ReactNode }) {
  const showToast = useToast();
  const [queryClient] = useState(() => createQueryClient((error) => showToast(toastForError(error))));
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
