// /homepage/shopping/:id (spec 002 section 2): a shop activity's products, each added to the
// cart with a quantity within what the member may still have; after adding, the
// pending-purchases notice stays for 10 seconds with the way to the cart.
import { useState } from "react";
import { Link, useParams } from "react-router";
import { NotFoundPage } from "@/components/not-found-page";
import { useAddToCart } from "@/features/commerce/api/cart";
import { useActionProducts } from "@/features/commerce/api/products";
import { unitPriceCents } from "@/features/commerce/components/cart-line";
import { PENDING_PURCHASES_MS, PENDING_PURCHASES_TEXT } from "@/features/commerce/messages";
import { formatBrl } from "@/features/commerce/money";
import { CART_PATH } from "@/features/commerce/paths";
import { useTimedFlag } from "@/lib/use-timed-flag";
import type { Product } from "@/types/api";
import "./shop-screens.css";

export const NO_PRODUCTS_TEXT = "Não há produtos disponíveis nesta atividade.";
export const SOLD_OUT_TEXT = "Esgotado";

function ProductCard({ product, onAdd, adding }: { product: Product; onAdd: (quantity: number) => void; adding: boolean }) {
  const [quantity, setQuantity] = useState(1);
  const price = unitPriceCents(product);
  const soldOut = product.limit < 1;
  const chosen = Math.min(quantity, Math.max(product.limit, 1));
  return (
    <li className="shop-product">
      {product.image ? (
        <img className="shop-product__image" src={product.image} alt="" />
      ) : (
        <span className="shop-product__image" aria-hidden="true" />
      )}
      <h2 className="shop-product__name">{product.name}</h2>
      {product.description && <p className="shop-product__description">{product.description}</p>}
      <p className="shop-product__price">
        {price !== product.value && <s className="shop-product__old-price">{formatBrl(product.value)}</s>}{" "}
        <strong>{formatBrl(price)}</strong>
      </p>
      {soldOut ? (
        <p className="shop-product__sold-out">{SOLD_OUT_TEXT}</p>
      ) : (
        <div className="shop-product__actions">
          <label className="shop-product__quantity">
            Quantidade
            <select value={chosen} onChange={(event) => setQuantity(Number(event.target.value))}>
              {Array.from({ length: product.limit }, (_, index) => index + 1).map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="button button--primary"
            aria-label={`Adicionar ${product.name} ao carrinho`}
            aria-disabled={adding}
            onClick={() => {
              if (!adding) onAdd(chosen);
            }}
          >
            Adicionar ao carrinho
          </button>
        </div>
      )}
    </li>
  );
}

export function ShoppingPage() {
  const actionId = Number(useParams().id);
  const valid = Number.isInteger(actionId) && actionId > 0;
  const products = useActionProducts(valid ? actionId : null);
  const addToCart = useAddToCart();
  // The pending-purchases notice: shown for PENDING_PURCHASES_MS after each addition.
  const notice = useTimedFlag(PENDING_PURCHASES_MS);

  if (!valid) return <NotFoundPage />;

  const list = products.data ?? [];
  const title = list[0]?.action.name ?? "Produtos";

  return (
    <section className="shop-screen">
      <h1 className="shop-screen__title">{title}</h1>
      <div className="shop-notice" role="status">
        {notice.shown && (
          <p className="shop-notice__text">
            {PENDING_PURCHASES_TEXT} <Link to={CART_PATH}>Ir para o carrinho</Link>
          </p>
        )}
      </div>
      {products.isPending ? (
        <p className="shop-screen__loading" aria-busy="true">
          Carregando produtos…
        </p>
      ) : products.isError ? (
        <div className="shop-screen__error">
          <p>Não foi possível carregar os produtos.</p>
          <button type="button" className="button button--secondary" onClick={() => void products.refetch()}>
            Tentar novamente
          </button>
        </div>
      ) : list.length === 0 ? (
        <p className="shop-screen__empty">{NO_PRODUCTS_TEXT}</p>
      ) : (
        <ul className="shop-products">
          {list.map((product) => (
            <ProductCard
              key={product.id}
              product={product}
              adding={addToCart.isPending}
              onAdd={(quantity) => addToCart.mutate([{ id: product.id, quantity }], { onSuccess: notice.show })}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
