// How the console names a top-up's methods and states, and which decisions a top-up allows
// (the server's rules, docs/api-wallet.md "Console").
import type { OpsTopUp, OpsTopUpAction, OpsTopUpMethod, OpsTopUpStatus } from "@/features/staff/api/topups";

export const TOP_UP_METHOD_LABELS: Record<OpsTopUpMethod, string> = {
  pix: "PIX",
  card: "Cartão",
  transfer: "Transferência",
};

export const TOP_UP_STATUS_LABELS: Record<OpsTopUpStatus, string> = {
  pending: "Pendente",
  review: "Em análise",
  credited: "Creditada",
  failed: "Falhou",
  expired: "Expirada",
  rejected: "Recusada",
  refunded: "Estornada",
};

/** The badge colour of each status (ops.css): waiting blue or amber, credited green, ended red. */
export const TOP_UP_STATUS_BADGES: Record<OpsTopUpStatus, string> = {
  pending: "running",
  review: "retrying",
  credited: "succeeded",
  failed: "failed",
  expired: "cancelled",
  rejected: "failed",
  refunded: "cancelled",
};

/** Confirm and reject: a transfer request still waiting, or a paid top-up under review. */
function awaitsStaff(topUp: Pick<OpsTopUp, "method" | "status">): boolean {
  return topUp.status === "review" || (topUp.status === "pending" && topUp.method === "transfer");
}

/** The decisions staff may take on this top-up, in the order the buttons show. An expired
 * transfer request may still be confirmed: its member paid late. */
export function actionsFor(topUp: Pick<OpsTopUp, "method" | "status">): OpsTopUpAction[] {
  if (awaitsStaff(topUp)) return ["confirm", "reject"];
  if (topUp.status === "expired" && topUp.method === "transfer") return ["confirm"];
  if (topUp.status === "credited" && topUp.method !== "transfer") return ["refund"];
  return [];
}

export const ACTION_LABELS: Record<OpsTopUpAction, string> = {
  confirm: "Confirmar",
  reject: "Recusar",
  refund: "Estornar",
};

export const ACTION_DONE: Record<OpsTopUpAction, string> = {
  confirm: "Recarga confirmada: os créditos entraram no saldo do membro.",
  reject: "Recarga recusada.",
  refund: "Recarga estornada.",
};

/** Where the refund of a rejected or refunded charge stands at the provider; null when no
 * refund is owed (a transfer, or no charge was decided back). */
export function refundState(topUp: Pick<OpsTopUp, "status" | "gateway_charge_id" | "refund_sent_at">): string | null {
  if (topUp.status !== "rejected" && topUp.status !== "refunded") return null;
  if (!topUp.gateway_charge_id) return null;
  return topUp.refund_sent_at ? "sent" : "pending";
}

/** What the decision does, as the confirmation step says it. */
export function actionEffect(action: OpsTopUpAction, topUp: Pick<OpsTopUp, "status" | "user_name">): string {
  switch (action) {
    case "confirm":
      return topUp.status === "expired"
        ? `O pedido já expirou: confirme só se o pagamento chegou. O valor é creditado agora no saldo de ${topUp.user_name}, que recebe um e-mail.`
        : `O valor é creditado agora no saldo de ${topUp.user_name}, que recebe um e-mail.`;
    case "reject":
      return topUp.status === "review"
        ? `O pagamento é devolvido a ${topUp.user_name} e nada é creditado.`
        : `O pedido de ${topUp.user_name} é encerrado e nada é creditado.`;
    case "refund":
      return `O pagamento é devolvido a ${topUp.user_name}. O que ainda não foi gasto sai do saldo; o que já foi gasto vira um débito.`;
  }
}
