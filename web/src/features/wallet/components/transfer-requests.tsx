// 'Pedidos de transferência' (spec 002): the member's bank-transfer requests as a table of
// Data, Valor and Status, newest first, with its loading, empty and error states.
import { formatBrl } from "@/features/commerce";
import { useTransferRequests } from "@/features/wallet/api/topups";
import { formatDate } from "@/lib/dates";
import { toastForError } from "@/lib/api-client";

export const REQUESTS_LABEL = "Pedidos de transferência";
export const NO_REQUESTS_TEXT = "Você ainda não fez pedidos de transferência.";
export const REQUESTS_ERROR_TEXT = "Não foi possível carregar os pedidos de transferência.";

/** Reais with up to two decimals as centavos, without float drift. */
const centsOfPoints = (points: number) => Math.round(points * 100);

export function TransferRequests() {
  const requests = useTransferRequests();

  if (requests.isPending) {
    return (
      <div className="statement-skeleton" role="status" aria-label={`Carregando ${REQUESTS_LABEL}`} aria-busy="true">
        {Array.from({ length: 3 }, (_, index) => (
          <div key={index} className="statement-skeleton__row" aria-hidden="true">
            <span className="statement-skeleton__bar statement-skeleton__bar--wide" />
            <span className="statement-skeleton__bar" />
          </div>
        ))}
      </div>
    );
  }
  if (requests.isError) {
    return (
      <div className="statement-error" role="alert">
        <p>{REQUESTS_ERROR_TEXT}</p>
        <p>{toastForError(requests.error).text}</p>
        <button type="button" className="button button--secondary" onClick={() => void requests.refetch()}>
          Tentar novamente
        </button>
      </div>
    );
  }
  if (requests.data.length === 0) return <p className="statement-empty">{NO_REQUESTS_TEXT}</p>;
  return (
    <div className="top-up__table-wrap">
      <table className="top-up__table" aria-label={REQUESTS_LABEL}>
        <thead>
          <tr>
            <th scope="col">Data</th>
            <th scope="col">Valor</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {requests.data.map((request) => (
            <tr key={request.id}>
              <td>{formatDate(request.createdAt)}</td>
              <td>{formatBrl(centsOfPoints(request.points))}</td>
              <td>{request.status.name}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
