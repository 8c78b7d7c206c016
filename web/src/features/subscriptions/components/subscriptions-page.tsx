// /homepage/assinaturas/:actionId? 'Minhas assinaturas' (spec 002): the charges grouped by
// type 21 activity or plan, each group an expandable row with its 'Cobranças' table and a
// cancel button ('Cancelada' and disabled once cancelled); 'Novo cartão' where a charge is
// unpaid, leading to the card form that tries it again.
import { useId, useState } from "react";
import { Link, useParams } from "react-router";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { ListPage, Skeletons } from "@/components/list-page";
import { useErrorToast } from "@/components/toasts/use-error-toast";
import { useSnackbar } from "@/components/toasts/use-toast";
import { useCancelActionSubscription, useCharges } from "@/features/subscriptions/api/charges";
import { CancelPlanDialog } from "@/features/subscriptions/components/cancel-plan-dialog";
import { SUBSCRIPTION_PARAM } from "@/features/subscriptions/components/subscription-card-page";
import { groupCharges, opensByDefault, type ChargeGroup } from "@/features/subscriptions/charge-groups";
import {
  CANCEL_LIST_FAILURE_TEXT,
  CANCEL_LIST_SUCCESS_TEXT,
  NO_SUBSCRIPTIONS_TEXT,
} from "@/features/subscriptions/messages";
import { planIdOf } from "@/features/subscriptions/plan-id";
import "./subscriptions.css";

export const SUBSCRIPTIONS_TITLE = "Minhas assinaturas";
export const CHARGES_CAPTION = "Cobranças";
export const CANCELLED_CHIP = "Cancelada";
export const NEW_CARD_BUTTON = "Novo cartão";
const COLUMNS = ["Atividade", "Vigência", "Valor", "Status pagamento", "Recorrência"] as const;

function CancelActionDialog({ group, onClose }: { group: ChargeGroup; onClose: () => void }) {
  const cancel = useCancelActionSubscription();
  const showSnackbar = useSnackbar();
  return (
    <ConfirmDialog
      title="Cancelar assinatura"
      confirmLabel="Confirmar cancelamento"
      busy={cancel.isPending}
      onCancel={onClose}
      onConfirm={() =>
        cancel.mutate(
          { subscriptionId: group.subscriptionId, actionId: group.actionId ?? 0 },
          {
            onSuccess: () => {
              showSnackbar(CANCEL_LIST_SUCCESS_TEXT);
              onClose();
            },
            onError: () => showSnackbar(CANCEL_LIST_FAILURE_TEXT),
          },
        )
      }
    >
      <p>Deseja cancelar a assinatura de {group.name}?</p>
    </ConfirmDialog>
  );
}

function ChargeGroupRow({ group, initiallyOpen }: { group: ChargeGroup; initiallyOpen: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const [cancelling, setCancelling] = useState(false);
  const panelId = useId();
  return (
    <li className="charge-group">
      <div className="charge-group__header">
        <button
          type="button"
          className="charge-group__toggle"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((current) => !current)}
        >
          <span className="charge-group__name">{group.name}</span>
          {group.description && <span className="charge-group__description">{group.description}</span>}
        </button>
        {group.cancelled && <span className="subscription-chip">{CANCELLED_CHIP}</span>}
        <button
          type="button"
          className="charge-group__cancel"
          aria-label={`Cancelar assinatura de ${group.name}`}
          disabled={group.cancelled}
          onClick={() => setCancelling(true)}
        >
          <span aria-hidden="true">✕</span>
        </button>
      </div>
      <div id={panelId} hidden={!open} className="charge-group__panel">
        <table className="charges-table">
          <caption>{CHARGES_CAPTION}</caption>
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {group.charges.map((charge) => (
              <tr key={charge.id}>
                <td>{charge.name}</td>
                <td>{charge.vigencia}</td>
                <td>{charge.priceFormatted}</td>
                <td className={charge.taken_back === null ? undefined : "charges-table__taken-back"}>
                  {charge.status}
                </td>
                <td>{charge.recurrenceFormatted}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {group.unpaidSubscriptionId !== null && (
          <Link
            className="button button--primary"
            to={`/homepage/cartao-assinatura?${SUBSCRIPTION_PARAM}=${group.unpaidSubscriptionId}`}
          >
            {NEW_CARD_BUTTON}
          </Link>
        )}
      </div>
      {cancelling &&
        (group.actionId === null ? (
          <CancelPlanDialog onClose={() => setCancelling(false)} successText={CANCEL_LIST_SUCCESS_TEXT} />
        ) : (
          <CancelActionDialog group={group} onClose={() => setCancelling(false)} />
        ))}
    </li>
  );
}

export function SubscriptionsPage() {
  const actionId = planIdOf(useParams().actionId);
  const charges = useCharges();
  useErrorToast(charges.error);
  const groups = groupCharges(charges.data ?? []);
  return (
    <ListPage title={SUBSCRIPTIONS_TITLE}>
      {charges.isPending ? (
        <Skeletons label="Carregando assinaturas" count={3} className="charge-groups" itemClassName="charge-group--skeleton skeleton-shimmer" />
      ) : charges.isError ? null : groups.length === 0 ? (
        <p className="list-page__empty">{NO_SUBSCRIPTIONS_TEXT}</p>
      ) : (
        <ul className="charge-groups">
          {groups.map((group) => (
            <ChargeGroupRow key={group.key} group={group} initiallyOpen={opensByDefault(group, groups.length, actionId)} />
          ))}
        </ul>
      )}
    </ListPage>
  );
}
