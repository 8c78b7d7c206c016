// The shop's react-query keys, under one root per member: a purchase refreshes the cart,
// the products' limits and the orders at once.
export const commerceKeys = {
  all: (userId: number) => ["commerce", userId] as const,
  cart: (userId: number) => ["commerce", userId, "cart"] as const,
  products: (userId: number, actionId: number) => ["commerce", userId, "products", actionId] as const,
  orders: (userId: number) => ["commerce", userId, "orders"] as const,
  order: (userId: number, orderId: number) => ["commerce", userId, "orders", orderId] as const,
  addresses: (userId: number) => ["commerce", userId, "addresses"] as const,
  vouchers: (userId: number) => ["commerce", userId, "vouchers"] as const,
  purchases: (userId: number) => ["commerce", userId, "purchases"] as const,
};
