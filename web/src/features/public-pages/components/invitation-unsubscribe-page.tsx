// /convites/descadastrar?s={stationId}&e={address hash}&h={signature}: the link at the foot of
// an invitation e-mail. The addressee confirms with a click (a mail scanner that opens links
// must not unsubscribe anyone); the server checks the signature.
import { useMutation } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { MessagePage } from "@/components/message-page";
import { api, toastForError } from "@/lib/api-client";
import { OWN_ERROR_TEXT } from "@/lib/query-client";
import "./public-pages.css";

export const UNSUBSCRIBE_BUTTON = "Não quero receber convites";
export const UNSUBSCRIBED_TEXT = "Pronto: este endereço não receberá mais convites deste programa.";
export const INCOMPLETE_LINK_TEXT = "O link está incompleto. Confira o endereço e tente novamente.";

export function InvitationUnsubscribePage() {
  const [params] = useSearchParams();
  const stationId = Number(params.get("s"));
  const address = params.get("e") ?? "";
  const hash = params.get("h") ?? "";
  const complete = Number.isSafeInteger(stationId) && stationId > 0 && address !== "" && hash !== "";
  const unsubscribe = useMutation({
    mutationFn: () => api.post<void>("/invitation-unsubscribe", { station_id: stationId, address, hash }),
    meta: OWN_ERROR_TEXT,
  });

  let body;
  if (!complete) {
    body = <p role="alert">{INCOMPLETE_LINK_TEXT}</p>;
  } else if (unsubscribe.isSuccess) {
    body = <p role="status">{UNSUBSCRIBED_TEXT}</p>;
  } else {
    body = (
      <>
        <p>Você recebeu um convite por e-mail de alguém que participa do programa.</p>
        {unsubscribe.isError && <p role="alert">{toastForError(unsubscribe.error).text}</p>}
        <button
          type="button"
          className="button button--primary"
          disabled={unsubscribe.isPending}
          aria-busy={unsubscribe.isPending}
          onClick={() => unsubscribe.mutate()}
        >
          {unsubscribe.isPending ? "Enviando..." : UNSUBSCRIBE_BUTTON}
        </button>
      </>
    );
  }

  return (
    <MessagePage title="Convites por e-mail">
      {body}
      <div className="mailing-list__actions">
        <Link className="button button--secondary" to="/">
          Voltar ao início
        </Link>
      </div>
    </MessagePage>
  );
}
