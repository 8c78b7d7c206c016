// The shop's messages of spec 002 (section 8, the error catalogue, and section 2), verbatim,
// for the screens' toasts: each is a title and a text, as the toasts show them.
import type { Toast } from "@/lib/api-client";

export const PIX_EXPIRED: Toast = {
  title: "Tempo expirado",
  text: "O tempo máximo para pagamento do PIX expirou. Para comprar novamente, recomece o processo.",
};

export const PIX_UNCONFIRMED: Toast = {
  title: "Pagamento não confirmado",
  text: "Seu pagamento ainda não foi confirmado pelo nosso sistema de pagamentos. Se já tiver pago, o processo pode demorar alguns segundos.",
};

export const RESERVATION_EXPIRED: Toast = {
  title: "Tempo de reserva esgotado",
  text: "O tempo limite de reserva de produto para compra se esgotou. Por favor, comece novamente.",
};

export const COUPON_APPLIED: Toast = { title: "Tudo certo", text: "Cupom aplicado com sucesso!" };

/** A refused coupon: 'Cupom inválido' with the server's message, else this text. */
export const COUPON_INVALID_TITLE = "Cupom inválido";
export const COUPON_NOT_APPLIED_TEXT = "Não foi possível aplicar este cupom.";

export const VOUCHERS_FAILED_TEXT = "Erro ao gerar os vouchers.";
export const OUT_OF_STOCK_TEXT = "O estoque desse(s) produto(s) está esgotado no momento.";
export const PENDING_PURCHASES_TEXT = "Há compras pendentes no seu Carrinho. Por favor, confira e finalize o pagamento";
/** How long the pending-purchases notice stays (spec 002 section 9). */
export const PENDING_PURCHASES_MS = 10_000;
export const ORDER_SUCCESS_TITLE = "Pedido realizado com sucesso!";
export const PAID_STATUS = "Pagamento confirmado";
export const PARTIALLY_REFUNDED_STATUS = "Parcialmente estornada";
export const VOUCHER_USED_TEXT = "Este voucher já foi utilizado!";
