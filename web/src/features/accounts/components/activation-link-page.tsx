import { useEffect, useRef } from "react";
import { useNavigate, useParams } from "react-router";
import { LoadingPage } from "@/components/loading-page";
import { useActivateParticipant } from "@/features/accounts/api/activate-participant";

/**
 * /ativar/{hash}/{email}: the e-mail's link (or its 6-digit code in the same place)
 * activates the account as the page opens. A failure leads to /confirmacao/{email}, where a
 * code can be typed or a new one asked for.
 */
export function ActivationLinkPage() {
  const { hash = "", email = "" } = useParams();
  const navigate = useNavigate();
  const activation = useActivateParticipant({
    onError: () => void navigate(`/confirmacao/${encodeURIComponent(email)}`, { replace: true }),
  });
  const { mutate } = activation;
  const started = useRef(false);

  useEffect(() => {
    // Once per page: a second try of a used code could count as a wrong one.
    if (started.current) return;
    started.current = true;
    mutate({ email, hash });
  }, [mutate, email, hash]);

  return <LoadingPage />;
}
