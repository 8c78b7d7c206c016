// The contact form ('Fale conosco', POST /enviar-suporte): stored for the station's staff,
// e-mailed to the station and acknowledged to the sender. A failure shows the default
// 'Erro' toast with the server's text (spec 002's error catalogue).
import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import type { SupportRequest, SupportSent } from "@/types/api";

export function sendSupport(body: SupportRequest): Promise<SupportSent> {
  return api.post<SupportSent>("/enviar-suporte", body);
}

export function useSendSupport() {
  return useMutation({ mutationFn: sendSupport });
}
