import { Link } from "react-router";
import { MessagePage } from "@/components/message-page";

export function NotAuthorizedRoute() {
  return (
    <MessagePage title="Erro 401!">
      <p>Você não possui autorização para acessar esta página.</p>
      <Link className="button button--primary" to="/">
        Voltar ao início
      </Link>
    </MessagePage>
  );
}
