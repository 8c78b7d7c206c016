import { Link } from "react-router";
import { MessagePage } from "@/components/message-page";

/** /confimation: where the root gate sends a user whose account is not active yet. */
export function AccountNotActiveRoute() {
  return (
    <MessagePage title="Sua conta ainda não foi ativada.">
      <p>Siga as instruções que enviamos para o seu e-mail para ativar a sua conta.</p>
      <Link className="button button--primary" to="/">
        Voltar ao início
      </Link>
    </MessagePage>
  );
}
