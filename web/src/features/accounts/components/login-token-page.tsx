import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Link, useParams } from "react-router";
import { LoadingPage } from "@/components/loading-page";
import { MessagePage } from "@/components/message-page";
import { loginWithTokenQueryOptions } from "@/features/accounts/api/login-with-token";
import { useFinishLogin } from "@/features/accounts/finish-login";
import { toastForError } from "@/lib/api-client";

/** /login-token/{token}: a hand-over link from another host starts a session here. */
export function LoginTokenPage() {
  const { token = "" } = useParams();
  const query = useQuery(loginWithTokenQueryOptions(token));
  const finishLogin = useFinishLogin();
  const finished = useRef(false);

  useEffect(() => {
    if (!query.data || finished.current) return;
    finished.current = true;
    void finishLogin(query.data, { mayHandOver: false });
  }, [query.data, finishLogin]);

  if (query.isError) {
    return (
      <MessagePage title="Não foi possível entrar">
        <p>{toastForError(query.error).text}</p>
        <Link className="button button--primary" to="/login">
          Ir para o login
        </Link>
      </MessagePage>
    );
  }
  return <LoadingPage />;
}
