// Answers of the commerce API shaped by the contract's types, for the shop's screen tests.
import type {
  CartLineItem,
  CouponApplied,
  CouponPurchase,
  DeliveryLocation,
  Order,
  OrderTotals,
  Product,
  Reservation,
  ShopAction,
  Voucher,
} from "@/types/api";

export const CART = "GET /api/user-shopping-cart";
export const CONFIRM_CART = "POST /api/single-product-orders";
export const UPDATE_CART = "PUT /api/update-shopping-cart";
export const ADD_TO_CART = "POST /api/add-products-to-shoppping-cart";
export const APPLY_COUPON = "POST /api/cart/apply-coupon";
export const PLACE_ORDER = "POST /api/cupom-product-order-cart";
export const ORDERS = "GET /api/product-orders-user/1";
export const REMOVE_COUPON = "POST /api/cart/remove-coupon";
export const CART_TOTALS = "GET /api/cart/totals";
export const SAVED_CARDS = "GET /api/user-credit-cards/1";
export const INSTALLMENTS = "POST /api/calculate-installments";
export const CARD_TOKENS = "POST /api/sandbox/card-tokens";
export const checkPaymentCall = (orderId: number) => `POST /api/product-orders/${orderId}/check-payment`;
export const simulatePixCall = (chargeId: string) => `POST /api/sandbox/pix/${chargeId}/pay`;
export const BALANCE = "GET /api/users-points/1";
export const orderCall = (id: number) => `GET /api/product-orders/?where[id]=${id}`;
export const removeCall = (productId: number) => `DELETE /api/remove-product-from-shopping-cart/${productId}`;
export const productsCall = (actionId: number) => `GET /api/action-products/${actionId}`;
export const VOUCHERS = "GET /api/user-vouchers/1";
export const PURCHASES = "GET /api/user-bought-cupoms/1";
export const CREATE_VOUCHERS = "POST /api/create-vouchers-product-order";
export const receiptCall = (orderId: number) => `GET /api/product-orders/${orderId}/receipt`;
export const voucherPdfCall = (code: string) => `GET /api/vouchers/${code}/pdf`;
export const validatorCall = (code: string) => `GET /api/validator/vouchers/${code}`;
export const validateCall = (code: string) => `POST /api/validator/vouchers/${code}`;

/** A PDF answer, as the document routes stream it. */
export function pdfResponse(): Response {
  return new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { status: 200, headers: { "Content-Type": "application/pdf" } });
}

export function buildDeliveryLocation(overrides: Partial<DeliveryLocation> = {}): DeliveryLocation {
  return {
    id: 31,
    name: "Entrega em casa",
    price: 1500,
    delivery: true,
    helper_label_field_1: null,
    helper_label_field_2: null,
    street: null,
    street_number: null,
    zipcode: null,
    ...overrides,
  };
}

export function buildShopAction(overrides: Partial<ShopAction> = {}): ShopAction {
  return {
    id: 20,
    name: "Kit do associado",
    type_id: 14,
    digital_product: false,
    payment_option: "default",
    allow_installments: false,
    sell_vouchers: false,
    only_one_product: false,
    discount_delivery: 0,
    familiarVoucher: false,
    points: 5,
    additional_cashback: 0,
    delivery_locations: [
      buildDeliveryLocation(),
      buildDeliveryLocation({
        id: 32,
        name: "Retirada na sede",
        price: 0,
        delivery: false,
        street: "Rua Augusta",
        street_number: "100",
        zipcode: "01310100",
      }),
    ],
    ...overrides,
  };
}

export function buildProduct(overrides: Partial<Product> = {}): Product {
  return {
    id: 3,
    action_id: 20,
    action: buildShopAction(),
    name: "Camiseta do clube",
    description: "Algodão, tamanho M",
    image: null,
    value: 5000,
    discount_value: 0,
    limit: 5,
    limit_per_user: 10,
    stock: 40,
    user_single_product_orders: 0,
    ...overrides,
  };
}

export function buildCartLine(overrides: Partial<CartLineItem> = {}): CartLineItem {
  const product = overrides.product ?? buildProduct();
  return { product_id: product.id, quantity: 2, ...overrides, product };
}

export function buildTotals(overrides: Partial<OrderTotals> = {}): OrderTotals {
  return {
    product_items_sum_value: 10000,
    delivery_tax_value: 0,
    additional_discount_value: 0,
    coupon_discount_value: 0,
    total_final_value: 10000,
    wallet_value: 10000,
    credit_card_value: 0,
    cashback_value: 500,
    ...overrides,
  };
}

export function buildReservation(expiresAt: string, totals: Partial<OrderTotals> = {}): Reservation {
  return { checkout_id: 9, reserveTime: 900, expires_at: expiresAt, totals: buildTotals(totals) };
}

export function buildCouponApplied(after: Partial<OrderTotals> = {}): CouponApplied {
  return {
    coupon: { code: "BEMVINDO", discountValue: 1000 },
    totals: { before: buildTotals(), after: buildTotals({ additional_discount_value: 1000, ...after }) },
  };
}

export function buildOrder(overrides: Partial<Order> = {}): Order {
  return {
    id: 77,
    code: "PED-000077",
    user_id: 1,
    createdAt: "2026-11-21T12:00:00Z",
    paid_at: "2026-11-21T12:00:00Z",
    status: "Pagamento confirmado",
    status_code: "paid",
    refunded_percentage: 0,
    create_vouchers: false,
    total_final_value: 11500,
    total_credit_card_value: 0,
    credit_card_value: 0,
    final_value: 11500,
    wallet_value: 11500,
    cashback_value: 500,
    product_items_sum_value: 10000,
    delivery_tax_value: 1500,
    additional_discount_value: 0,
    action: { id: 20, name: "Kit do associado", type_id: 14, sell_vouchers: false, familiarVoucher: false },
    gateway_charge: null,
    delivery_location_id: 31,
    delivery_location: { name: "Entrega em casa", price: 1500 },
    address: "Rua Augusta, Consolação, São Paulo - SP",
    reference: null,
    zipcode: "01310100",
    deliveries: [
      {
        action_id: 20,
        delivery_location_id: 31,
        delivery_location_name: "Entrega em casa",
        delivery: true,
        address: "Rua Augusta, Consolação, São Paulo - SP",
        number: "100",
        reference: null,
        zipcode: "01310100",
        price: 1500,
        discount: 0,
      },
    ],
    single_product_orders: [
      {
        id: 5,
        product_id: 3,
        action_id: 20,
        quantity: 2,
        unit_price: 5000,
        refunded_quantity: 0,
        product: { id: 3, name: "Camiseta do clube", image: null, value: 5000, discount_value: 0 },
      },
    ],
    payments: [{ id: 1, method: "wallet", amount: 11500, status: "paid", installments: 1, expires_at: null, failure_reason: null }],
    ...overrides,
  };
}

export function buildVoucher(overrides: Partial<Voucher> = {}): Voucher {
  return {
    id: 501,
    code: "7K3M9Q2X4B8N",
    createdAt: "2026-11-21T12:00:00Z",
    validated: "0",
    order_id: 77,
    order_code: "PED-000077",
    product: "Ingresso de cinema",
    validator_link: "https://parceiro.example/validador/7K3M9Q2X4B8N",
    presential_course: {
      name: "Cupom do cinema",
      rules: "<p>Válido de segunda a quinta.</p>",
      local: null,
      date: "2026-12-31T12:00:00Z",
      action: { id: 21, name: "Cupom do cinema", type_id: 3, image: null, familiarVoucher: false },
    },
    dependents: [],
    ...overrides,
  };
}

export function buildCouponPurchase(overrides: Partial<CouponPurchase> = {}): CouponPurchase {
  return {
    id: 9,
    createdAt: "2026-11-21T12:00:00Z",
    price: 2500,
    code: "PED-000077",
    order_id: 77,
    quantity: 1,
    presential_course: null,
    cupom: {
      action: { id: 21, name: "Cupom do cinema", type_id: 3, image: null, familiarVoucher: false },
      is_donation: false,
      createdAt: "2026-11-21T12:00:00Z",
    },
    ...overrides,
  };
}
