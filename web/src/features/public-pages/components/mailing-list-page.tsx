import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { LoadingPage } from "@/components/loading-page";
import { MessagePage } from "@/components/message-page";
import { mailingListQueryOptions, type MailingListAction } from "@/features/public-pages/api/mailing-list";
import "./public-pages.css";

const TEXTS: Record<MailingListAction, { success: string; error: string }> = {
  subscribe: {
    success: "Você se inscreveu novamente com sucesso em nossa lista.",
    error: "Houve um erro ao inscrevê-lo(a) em nossa página. Por favor, recarregue a página.",
  },
  unsubscribe: {
    success: "Você se desinscreveu com sucesso da nossa lista de e-mails.",
    error: "Houve um erro ao desinscrevê-lo(a) em nossa lista, por favor, recarregue a página.",
  },
};

function userIdOf(value: string): number | null {
  const id = Number(value);
  return /^\d+$/.test(value) && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** /email/{inscricao|desinscricao}/{userId}/{userHash}: the links at the foot of our e-mails. */
export function MailingListPage({ action }: { action: MailingListAction }) {
  const { userId = "", userHash = "" } = useParams();
  const id = userIdOf(userId);
  const query = useQuery({ ...mailingListQueryOptions(action, { id: id ?? 0, hash: userHash }), enabled: id !== null });

  if (id !== null && query.isPending) return <LoadingPage />;
  const succeeded = id !== null && query.data === true;
  const subscribeAgainPath = `/email/inscricao/${encodeURIComponent(userId)}/${encodeURIComponent(userHash)}`;

  return (
    <MessagePage title="Lista de e-mails">
      <p role={succeeded ? "status" : "alert"}>{succeeded ? TEXTS[action].success : TEXTS[action].error}</p>
      <div className="mailing-list__actions">
        {succeeded && action === "unsubscribe" && (
          <Link className="button button--primary" to={subscribeAgainPath}>
            Inscrever-me novamente
          </Link>
        )}
        <Link className="button button--secondary" to="/">
          Voltar ao início
        </Link>
      </div>
    </MessagePage>
  );
}
