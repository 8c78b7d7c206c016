import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { LoadingPage } from "@/components/loading-page";
import { MessagePage } from "@/components/message-page";
import { validateSharingQueryOptions } from "@/features/public-pages/api/validate-sharing";
import { replaceLocation } from "@/features/public-pages/browser-location";
import { visitorId } from "@/features/public-pages/visitor-id";
import type { SharingRequest } from "@/types/api";

const INCOMPLETE_LINK_TEXT = "O link de compartilhamento está incompleto. Confira o endereço e tente novamente.";
const NO_DESTINATION_TEXT = "Este compartilhamento não tem um endereço para abrir.";

function positiveId(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Only web addresses are followed: a `javascript:` link must never run on our origin. */
function webAddress(link: string | null | undefined): string | null {
  if (!link) return null;
  try {
    const { protocol } = new URL(link);
    return protocol === "https:" || protocol === "http:" ? link : null;
  } catch {
    return null;
  }
}

function ShareError({ text }: { text: string }) {
  return (
    <MessagePage title="Não foi possível abrir este compartilhamento.">
      <p>{text}</p>
      <Link className="button button--primary" to="/">
        Voltar ao início
      </Link>
    </MessagePage>
  );
}

function ShareRedirect({ request }: { request: SharingRequest }) {
  const query = useQuery(validateSharingQueryOptions(request));
  const destination = webAddress(query.data?.action.contents[0]?.link);

  useEffect(() => {
    if (destination !== null) replaceLocation(destination);
  }, [destination]);

  if (query.isError) return <ShareError text={query.error.message} />;
  if (query.isSuccess && destination === null) return <ShareError text={NO_DESTINATION_TEXT} />;
  return <LoadingPage />;
}

/** /compartilhamento?source={userId}&campaign={activityId}: counts the visit, then opens the shared link. */
export function ShareRedirectPage() {
  const [searchParams] = useSearchParams();
  const [visitor] = useState(visitorId);
  const userId = positiveId(searchParams.get("source"));
  const actionId = positiveId(searchParams.get("campaign"));

  if (userId === null || actionId === null) return <ShareError text={INCOMPLETE_LINK_TEXT} />;
  return <ShareRedirect request={{ action_id: actionId, user_id: userId, visitor_id: visitor }} />;
}
