// The cart with no line (spec 002 section 2).
import { Link } from "react-router";
import "./commerce.css";

export const EMPTY_CART_TEXT = "Você ainda não possui itens no seu carrinho.";

export function EmptyCart() {
  return (
    <section className="empty-cart">
      <p>{EMPTY_CART_TEXT}</p>
      <Link className="button button--primary" to="/homepage">
        Voltar para a página inicial
      </Link>
    </section>
  );
}
