// The cart flow's rules that are not the server's totals (spec 002 sections 4 and 5): which
// activities ask for delivery, the delivery each chose, what the wallet and the card or PIX
// pay once delivery is added, the payment step's title, and the order's body.
import type { CartTotals } from "@/features/commerce/components/totals-box";
import type { OrderCartEntry } from "@/features/commerce/api/checkout";
import type { CartLineItem, DeliveryLocation, OrderTotals, ShopAction } from "@/types/api";

/** One activity's lines of the cart. */
export interface CartGroup {
  action: ShopAction;
  lines: CartLineItem[];
}

/** The cart's lines by activity, in the order the activities first appear. */
export function groupByAction(lines: readonly CartLineItem[]): CartGroup[] {
  const groups = new Map<number, CartGroup>();
  for (const line of lines) {
    const action = line.product.action;
    const group = groups.get(action.id) ?? { action, lines: [] };
    group.lines.push(line);
    groups.set(action.id, group);
  }
  return [...groups.values()];
}

/** Digital products have no shipping: step 1 is skipped when every line is digital. */
export function needsDelivery(groups: readonly CartGroup[]): boolean {
  return groups.some((group) => !group.action.digital_product);
}

/** `payment_only` on any activity keeps the wallet out of the whole order (docs/decisions.md). */
export function isPaymentOnly(groups: readonly CartGroup[]): boolean {
  return groups.some((group) => group.action.payment_option === "payment_only");
}

/** The per-activity delivery form (spec 002 section 3: deliveryLocation, zipcode, address, number). */
export interface DeliveryChoice {
  deliveryLocation: string;
  zipcode: string;
  address: string;
  number: string;
  reference: string;
}

export const EMPTY_DELIVERY: DeliveryChoice = { deliveryLocation: "", zipcode: "", address: "", number: "", reference: "" };

export function chosenLocation(action: ShopAction, choice: DeliveryChoice | undefined): DeliveryLocation | undefined {
  if (!choice || choice.deliveryLocation === "") return undefined;
  return action.delivery_locations.find((location) => String(location.id) === choice.deliveryLocation);
}

/** The delivery prices of the activities that ship, by the location each chose. */
export function deliveryCents(groups: readonly CartGroup[], choices: Readonly<Record<number, DeliveryChoice>>): number {
  return groups
    .filter((group) => !group.action.digital_product)
    .reduce((sum, group) => sum + (chosenLocation(group.action, choices[group.action.id])?.price ?? 0), 0);
}

/**
 * The server's totals of the hold (or of the coupon's `after`), which know nothing of the
 * delivery chosen since, with that delivery added as the server adds it when the order is
 * placed (spec 002 section 9): the delivery prices join the total, the wallet pays what it
 * can of it (nothing when `paymentOnly`), card or PIX the rest. The order's answer has the
 * final figures; this is what the member reads before placing it.
 */
export function totalsWithDelivery(
  held: OrderTotals,
  delivery: number,
  walletBalanceCents: number,
  paymentOnly: boolean,
): OrderTotals {
  const total = held.total_final_value + delivery;
  const wallet = paymentOnly ? 0 : Math.max(0, Math.min(walletBalanceCents, total));
  return {
    ...held,
    delivery_tax_value: held.delivery_tax_value + delivery,
    total_final_value: total,
    wallet_value: wallet,
    credit_card_value: total - wallet,
  };
}

/** The totals box's figures from the server's names. */
export function cartTotals(totals: OrderTotals): CartTotals {
  return {
    deliveryCents: totals.delivery_tax_value,
    productsCents: totals.product_items_sum_value,
    discountCents: totals.additional_discount_value,
    subtotalCents: totals.total_final_value,
    cashbackCents: totals.cashback_value,
  };
}

export const PAYMENT_TITLES = {
  walletAndCard: "Saldo e cartão",
  method: "Forma da pagamento",
  wallet: "Saldo",
} as const;

/**
 * Step 2's title (spec 002 section 2): 'Saldo' for payment-only or when the wallet covers all,
 * else 'Saldo e cartão' with a positive balance, 'Forma da pagamento' without.
 */
export function paymentTitle(totals: OrderTotals, walletBalanceCents: number, paymentOnly: boolean): string {
  if (paymentOnly || totals.credit_card_value <= 0) return PAYMENT_TITLES.wallet;
  return walletBalanceCents > 0 ? PAYMENT_TITLES.walletAndCard : PAYMENT_TITLES.method;
}

/** Card or PIX is asked only when an amount remains after the wallet, or for payment-only. */
export function asksPaymentMethod(totals: OrderTotals, paymentOnly: boolean): boolean {
  return paymentOnly || totals.credit_card_value > 0;
}

/** The order's `cart`: per activity its "product-{id}" quantities and its delivery choice. */
export function orderCart(groups: readonly CartGroup[], choices: Readonly<Record<number, DeliveryChoice>>): OrderCartEntry[] {
  return groups.map(({ action, lines }) => {
    const entry: OrderCartEntry = { action_id: action.id };
    for (const line of lines) entry[`product-${line.product_id}`] = line.quantity;
    const choice = choices[action.id];
    const location = chosenLocation(action, choice);
    if (action.digital_product || !choice || !location) return entry;
    entry.deliveryLocation = location.id;
    if (location.delivery) {
      entry.zipcode = choice.zipcode.replace(/\D/g, "");
      entry.address = choice.address.trim();
      entry.number = choice.number.trim();
      entry.reference = choice.reference.trim() || null;
    }
    return entry;
  });
}
