import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { LoadingPage } from "@/components/loading-page";
import { MessagePage } from "@/components/message-page";
import { userValidationQueryOptions } from "@/features/public-pages/api/get-user-validation";
import { StationLoadError } from "@/features/stations";
import { ApiError, NO_RESPONSE_STATUS } from "@/lib/api-client";

/** A refusal (a malformed id, say) means the card is not valid; no answer at all means we do not know. */
function isRefusal(error: Error): boolean {
  return error instanceof ApiError && error.status !== NO_RESPONSE_STATUS && error.status < 500;
}

/** /qr-code-user-validator/{id}: what scanning a member card's QR code shows, to anyone. */
export function QrCodeUserValidatorPage() {
  const { id = "" } = useParams();
  const query = useQuery(userValidationQueryOptions(id));

  if (query.isPending) return <LoadingPage />;
  if (query.isError && !isRefusal(query.error)) return <StationLoadError onRetry={() => void query.refetch()} />;

  if (query.data?.isValid === true) {
    return (
      <MessagePage title="Usuário válido!">
        <p>Este cartão pertence a um participante ativo do programa.</p>
      </MessagePage>
    );
  }
  return (
    <MessagePage title="Usuário inválido!">
      <p>Este cartão não corresponde a um participante ativo do programa.</p>
    </MessagePage>
  );
}
