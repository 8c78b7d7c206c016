// The member's cart (docs/api-commerce.md): read, add, set quantities, remove. Each change
// answers the whole cart, which replaces the one shown.
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { commerceKeys } from "@/features/commerce/api/commerce-keys";
import { useSession } from "@/features/session";
import { api } from "@/lib/api-client";
import type { CartLineItem, ProductQuantity } from "@/types/api";

export function getCart({ signal }: { signal?: AbortSignal } = {}): Promise<CartLineItem[]> {
  return api.get<CartLineItem[]>("/user-shopping-cart", { signal });
}

export function addToCart(products: ProductQuantity[]): Promise<CartLineItem[]> {
  return api.post<CartLineItem[]>("/add-products-to-shoppping-cart", { products });
}

export function updateCart(shoppingItems: ProductQuantity[]): Promise<CartLineItem[]> {
  return api.put<CartLineItem[]>("/update-shopping-cart", { shoppingItems });
}

export function removeFromCart(productId: number): Promise<CartLineItem[]> {
  return api.delete<CartLineItem[]>(`/remove-product-from-shopping-cart/${productId}`);
}

export function cartQueryOptions(userId: number | undefined) {
  return queryOptions({
    queryKey: commerceKeys.cart(userId ?? 0),
    queryFn: userId === undefined ? skipToken : ({ signal }) => getCart({ signal }),
  });
}

export function useCart() {
  return useQuery(cartQueryOptions(useSession()?.user.id));
}

/** A change of the cart: its answer is the cart; the products' limits are asked again. */
function useCartChange<V>(change: (variables: V) => Promise<CartLineItem[]>) {
  const queryClient = useQueryClient();
  const userId = useSession()?.user.id ?? 0;
  return useMutation({
    mutationFn: change,
    onSuccess: (cart) => {
      queryClient.setQueryData(commerceKeys.cart(userId), cart);
      void queryClient.invalidateQueries({ queryKey: ["commerce", userId, "products"] });
    },
  });
}

/** Adds quantities (failures: the server's message under 'Erro', spec 002 section 8). */
export function useAddToCart() {
  return useCartChange(addToCart);
}

export function useUpdateCart() {
  return useCartChange(updateCart);
}

export function useRemoveFromCart() {
  return useCartChange(removeFromCart);
}
