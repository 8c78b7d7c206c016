import { Link } from "react-router";
import "./cookie-notice.css";

export function CookieNotice({ onAccept }: { onAccept: () => void }) {
  return (
    <section className="cookie-notice" role="dialog" aria-modal="false" aria-label="Aviso de cookies">
      <p className="cookie-notice__text">
        Utilizamos cookies para melhorar a sua experiência. Ao continuar navegando, você concorda com a nossa{" "}
        <Link to="/politica-de-privacidade">Política de Privacidade</Link>.
      </p>
      <button type="button" className="button button--primary" onClick={onAccept}>
        Aceito
      </button>
    </section>
  );
}
