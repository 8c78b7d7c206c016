import { useNavigate } from "react-router";
import { MessagePage } from "@/components/message-page";

export function NoEstablishmentMessage() {
  const navigate = useNavigate();
  return (
    <MessagePage title="Nenhum estabelecimento está vinculado ao seu usuário.">
      <button type="button" className="button button--primary" onClick={() => void navigate("/logout")}>
        Tentar novamente
      </button>
    </MessagePage>
  );
}
