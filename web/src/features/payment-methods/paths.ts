export const PAYMENT_METHODS_PATH = "/homepage/meios-de-pagamento";
export const NEW_CARD_PATH = `${PAYMENT_METHODS_PATH}/criar`;
