// What the validator pages (a voucher's and a receipt's QR codes lead to them) share: the
// 401 page of spec 002 section 8 for whoever may not see what the code names.
import { Link } from "react-router";
import { MessagePage } from "@/components/message-page";
import { ApiError } from "@/lib/api-client";

export const UNAUTHORIZED_TITLE = "Erro 401!";
export const UNAUTHORIZED_TEXT = "Você não possui autorização para acessar esta página.";

export function Unauthorized({ signedIn }: { signedIn: boolean }) {
  return (
    <MessagePage title={UNAUTHORIZED_TITLE}>
      <p>{UNAUTHORIZED_TEXT}</p>
      {signedIn ? (
        <Link className="button button--primary" to="/">
          Voltar ao início
        </Link>
      ) : (
        <Link className="button button--primary" to="/login">
          Entrar
        </Link>
      )}
    </MessagePage>
  );
}

export const isStatus = (error: unknown, ...statuses: number[]) => error instanceof ApiError && statuses.includes(error.status);
