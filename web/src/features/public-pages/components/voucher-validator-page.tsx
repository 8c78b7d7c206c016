// /validador/{code}, where a voucher's QR code leads (docs/decisions.md, "After payment"):
// an account a partner granted for the voucher's activity, signed in, sees the voucher and
// marks it used, once. Anyone else (a visitor, a member, staff of another partner) gets the
// 401 page of spec 002 section 8.
import { LoadingPage } from "@/components/loading-page";
import { MessagePage } from "@/components/message-page";
import { useValidateVoucher, useValidatorVoucher } from "@/features/public-pages/api/voucher-validation";
import { isStatus, Unauthorized } from "@/features/public-pages/components/validator-access";
import { useSession } from "@/features/session";
import { formatDate } from "@/lib/dates";
import type { Voucher } from "@/types/api";
import "./voucher-validator-page.css";

export const VALIDATOR_TITLE = "Validação de voucher";
export const VALIDATE_TEXT = "Validar voucher";
export const VALIDATED_TEXT = "Voucher validado com sucesso!";
/** Spec 002 section 4 (the shop's member screens say it too). */
export const VOUCHER_USED_TEXT = "Este voucher já foi utilizado!";

function VoucherToValidate({ code, voucher }: { code: string; voucher: Voucher }) {
  const validate = useValidateVoucher(code);
  const refusedAsUsed = isStatus(validate.error, 409);
  // `validated` '0' is unused; anything else, used.
  const used = voucher.validated !== "0" || refusedAsUsed;
  return (
    <MessagePage title={VALIDATOR_TITLE}>
      <div className="voucher-validator">
        <p className="voucher-validator__title">{voucher.presential_course.name}</p>
        <p>{voucher.product}</p>
        <p className="voucher-validator__code">
          Código: <strong>{voucher.code}</strong>
        </p>
        <p>Criado em {formatDate(voucher.createdAt)}</p>
        {voucher.dependents.length > 0 && (
          <ul className="voucher-validator__dependents">
            {voucher.dependents.map((dependent, index) => (
              <li key={index}>
                {dependent.dependente} ({dependent.parentesco})
              </li>
            ))}
          </ul>
        )}
        {validate.isSuccess ? (
          <p role="status">{VALIDATED_TEXT}</p>
        ) : used ? (
          <p className="voucher-validator__used" role="status">
            {/* A 409 says why: used, or its unit refunded. */}
            {(refusedAsUsed && validate.error?.message) || VOUCHER_USED_TEXT}
          </p>
        ) : (
          <button
            type="button"
            className="button button--primary"
            disabled={validate.isPending}
            aria-busy={validate.isPending}
            onClick={() => validate.mutate()}
          >
            {VALIDATE_TEXT}
          </button>
        )}
        {validate.isError && !refusedAsUsed && (
          <p className="voucher-validator__error" role="alert">
            {validate.error.message}
          </p>
        )}
      </div>
    </MessagePage>
  );
}

export function VoucherValidatorPage({ code }: { code: string }) {
  const session = useSession();
  const voucher = useValidatorVoucher(code);
  if (session === null || isStatus(voucher.error, 401, 403)) return <Unauthorized signedIn={session !== null} />;
  if (voucher.isPending) return <LoadingPage />;
  if (voucher.isError) {
    return (
      <MessagePage title={VALIDATOR_TITLE}>
        <p>{voucher.error.message}</p>
        {!isStatus(voucher.error, 404) && (
          <button type="button" className="button button--secondary" onClick={() => void voucher.refetch()}>
            Tentar novamente
          </button>
        )}
      </MessagePage>
    );
  }
  return <VoucherToValidate code={code} voucher={voucher.data} />;
}
