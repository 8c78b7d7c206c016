import { Link } from "react-router";
import { MessagePage } from "@/components/message-page";

export function NotFoundPage() {
  return (
    <MessagePage title="Página não encontrada">
      <p>O endereço que você acessou não existe ou foi removido.</p>
      <Link className="button button--primary" to="/">
        Voltar ao início
      </Link>
    </MessagePage>
  );
}
