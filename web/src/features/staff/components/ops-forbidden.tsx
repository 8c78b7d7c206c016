import { Link } from "react-router";
import { MessagePage } from "@/components/message-page";

export const STAFF_ONLY_TEXT = "Acesso restrito à equipe de suporte.";

/** What a signed-in account without a staff grant sees under /ops. */
export function OpsForbidden() {
  return (
    <MessagePage title="Erro 403">
      <p>{STAFF_ONLY_TEXT}</p>
      <Link className="button button--primary" to="/">
        Voltar ao início
      </Link>
    </MessagePage>
  );
}
