// The shop's screens, under the member area (spec 002 section 2).
export const CART_PATH = "/homepage/carrinho";
export const ORDERS_PATH = "/homepage/pedidos";
export const VOUCHERS_PATH = "/homepage/vouchers";
export const orderPath = (orderId: number) => `${ORDERS_PATH}/${orderId}`;
export const shoppingPath = (actionId: number) => `/homepage/shopping/${actionId}`;
