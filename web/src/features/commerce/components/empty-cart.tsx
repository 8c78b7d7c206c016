// The cart with no line (spec 002 section 2).
import { Link } from "react-router";
import "./commerce.css";

export const EMPTY_CART_TEXT = "Você ainda não possui itens no seu carrinho.";

/** `title`: the cart's own heading, so the empty cart is still a page with its main heading. */
export function EmptyCart({ title }: { title: string }) {
  return (
    <section className="empty-cart">
      <h1 className="shop-screen__title">{title}</h1>
      <p>{EMPTY_CART_TEXT}</p>
      <Link className="button button--primary" to="/homepage">
        Voltar para a página inicial
      </Link>
    </section>
  );
}
