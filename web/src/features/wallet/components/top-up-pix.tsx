// A PIX top-up waiting for its payment: the shop's PIX panel (BR Code, copy, QR, countdown,
// 'Verificar pagamento', 'Simular pagamento' on the sandbox). The top-up is read again every
// few seconds; a polite live region says the page is waiting, so a screen reader hears it
// without the clock's every tick.
import { useToast } from "@/components/toasts/use-toast";
import {
  PixPanel,
  SIMULATE_PIX_TEXT,
  shopMessages,
  useSandboxPayments,
  useSimulatePixPayment,
} from "@/features/commerce";
import { useCheckTopUpPayment } from "@/features/wallet/api/topups";
import type { TopUp } from "@/types/api";
import { PIX_WAITING_TEXT } from "@/features/wallet/top-up-form";
import { ApiError } from "@/lib/api-client";

interface TopUpPixProps {
  topUp: TopUp;
  onExpired: () => void;
}

/** The top-up's answer to a check replaces the one shown, so a settled one leaves this screen. */
export function TopUpPix({ topUp, onExpired }: TopUpPixProps) {
  const showToast = useToast();
  const sandbox = useSandboxPayments();
  const simulate = useSimulatePixPayment();
  const check = useCheckTopUpPayment();
  const pix = topUp.pix;
  if (!pix?.pix_qr_code || !pix.expiration_date) return null;
  const chargeId = pix.charge_id;

  const verify = () =>
    check.mutate(topUp.id, {
      onSuccess: (current) => {
        if (current.status === "pending") showToast(shopMessages.PIX_UNCONFIRMED);
      },
      onError: (error) => {
        // Too many checks (429): the server says how long to wait, under the same title.
        const text = error instanceof ApiError && error.status === 429 ? error.message : null;
        showToast(text === null ? shopMessages.PIX_UNCONFIRMED : { ...shopMessages.PIX_UNCONFIRMED, text });
      },
    });

  return (
    <>
      <p className="top-up__waiting" role="status">
        {PIX_WAITING_TEXT}
      </p>
      <PixPanel
        amountCents={topUp.amount_cents}
        code={pix.pix_qr_code}
        expiresAt={pix.expiration_date}
        verifying={check.isPending}
        onVerify={verify}
        onExpire={onExpired}
      >
        {sandbox && chargeId && (
          <button
            type="button"
            className="button button--secondary"
            aria-disabled={simulate.isPending}
            onClick={() => {
              if (!simulate.isPending) simulate.mutate(chargeId);
            }}
          >
            {SIMULATE_PIX_TEXT}
          </button>
        )}
      </PixPanel>
    </>
  );
}
