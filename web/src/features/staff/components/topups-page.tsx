// /ops/recargas: a station's top-ups (money members put into the wallet by PIX, card or
// bank transfer), newest first, filtered by status and method. Support staff confirm a
// pending (or expired: paid late) transfer or a top-up under review, reject one, or refund a
// credited PIX or card top-up, each after a confirmation step (all audited); viewers only
// read. A refund the provider has not taken yet shows as pending. The station and
// the filters are in the address.
import { useState } from "react";
import { useSearchParams } from "react-router";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { SelectField } from "@/components/form/fields";
import { useSnackbar } from "@/components/toasts/use-toast";
import {
  TOP_UPS_LIMIT,
  useStationTopUps,
  useTopUpAction,
  type OpsTopUp,
  type OpsTopUpAction,
  type OpsTopUpFilter,
  type OpsTopUpMethod,
  type OpsTopUpStatus,
} from "@/features/staff/api/topups";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { StationSelect, idFrom } from "@/features/staff/components/station-select";
import { countOf, formatReais } from "@/features/staff/format";
import { useOpsMe } from "@/features/staff/ops-context";
import {
  ACTION_DONE,
  ACTION_LABELS,
  TOP_UP_METHOD_LABELS,
  TOP_UP_STATUS_BADGES,
  TOP_UP_STATUS_LABELS,
  actionEffect,
  actionsFor,
  refundState,
} from "@/features/staff/topup-labels";
import { formatDateTime } from "@/lib/dates";

export const TOP_UPS_TITLE = "Recargas";

const STATUSES = Object.keys(TOP_UP_STATUS_LABELS) as OpsTopUpStatus[];
const METHODS = Object.keys(TOP_UP_METHOD_LABELS) as OpsTopUpMethod[];

function statusOf(text: string | null): OpsTopUpStatus | null {
  return STATUSES.find((status) => status === text) ?? null;
}

function methodOf(text: string | null): OpsTopUpMethod | null {
  return METHODS.find((method) => method === text) ?? null;
}

function searchOf(stationId: number | null, filter: OpsTopUpFilter): Record<string, string> {
  const search: Record<string, string> = {};
  if (stationId !== null) search.station_id = String(stationId);
  if (filter.status) search.status = filter.status;
  if (filter.method) search.method = filter.method;
  return search;
}

/** When it was paid, credited or decided, whichever it has. */
function datesOf(topUp: OpsTopUp): string[] {
  const dates: string[] = [];
  if (topUp.paid_at) dates.push(`Pago em ${formatDateTime(topUp.paid_at)}`);
  if (topUp.credited_at) dates.push(`Creditado em ${formatDateTime(topUp.credited_at)}`);
  if (topUp.decided_at) dates.push(`Decidido em ${formatDateTime(topUp.decided_at)} por ID ${topUp.decided_by ?? "—"}`);
  if (topUp.status === "pending" && topUp.expires_at) dates.push(`Expira em ${formatDateTime(topUp.expires_at)}`);
  const refund = refundState(topUp);
  if (refund === "sent" && topUp.refund_sent_at) dates.push(`Estorno enviado em ${formatDateTime(topUp.refund_sent_at)}`);
  if (refund === "pending") dates.push("Estorno pendente no meio de pagamento (nova tentativa automática)");
  return dates;
}

interface Pending {
  topUp: OpsTopUp;
  action: OpsTopUpAction;
}

function TopUpRow({ topUp, canAct, onChoose, busy }: { topUp: OpsTopUp; canAct: boolean; onChoose: (pending: Pending) => void; busy: boolean }) {
  const actions = canAct ? actionsFor(topUp) : [];
  return (
    <tr>
      <td>{topUp.id}</td>
      <td>
        {topUp.user_name} <span className="ops-muted">(ID {topUp.user_id})</span>
        {topUp.user_email && <div className="ops-muted">{topUp.user_email}</div>}
      </td>
      <td>{TOP_UP_METHOD_LABELS[topUp.method]}</td>
      <td>{formatReais(topUp.amount_cents)}</td>
      <td>
        <span className={`ops-badge ops-badge--${TOP_UP_STATUS_BADGES[topUp.status]}`}>{TOP_UP_STATUS_LABELS[topUp.status]}</span>
        {topUp.failure_reason && <p className="ops-tries__reason">{topUp.failure_reason}</p>}
      </td>
      <td>
        {formatDateTime(topUp.created_at)}
        {datesOf(topUp).map((line) => (
          <div key={line} className="ops-muted">
            {line}
          </div>
        ))}
      </td>
      <td>{topUp.gateway_charge_id ?? "—"}</td>
      <td>
        {actions.length === 0 ? (
          <span className="ops-muted">—</span>
        ) : (
          <div className="ops-actions">
            {actions.map((action) => (
              <button
                key={action}
                type="button"
                className={action === "confirm" ? "button button--primary" : "button button--secondary"}
                disabled={busy}
                aria-label={`${ACTION_LABELS[action]} a recarga ${topUp.id}`}
                onClick={() => onChoose({ topUp, action })}
              >
                {ACTION_LABELS[action]}
              </button>
            ))}
          </div>
        )}
      </td>
    </tr>
  );
}

function TopUpList({ stationId, filter }: { stationId: number; filter: OpsTopUpFilter }) {
  const me = useOpsMe();
  const list = useStationTopUps(stationId, filter);
  const act = useTopUpAction();
  const showSnackbar = useSnackbar();
  const [pending, setPending] = useState<Pending | null>(null);

  const decide = ({ topUp, action }: Pending) =>
    act.mutate(
      { id: topUp.id, action },
      { onSuccess: () => showSnackbar(ACTION_DONE[action]), onSettled: () => setPending(null) },
    );

  if (list.data === undefined) {
    if (list.isError) return <OpsError title="Não foi possível carregar as recargas." query={list} />;
    return <OpsLoading label="Carregando recargas" />;
  }
  if (list.data.length === 0) {
    const filtered = filter.status !== null || filter.method !== null;
    return <OpsEmpty text={filtered ? "Nenhuma recarga com estes filtros nesta estação." : "Nenhuma recarga nesta estação."} />;
  }
  return (
    <>
      <p className="ops-muted">
        {countOf(list.data.length, "recarga", "recargas")}
        {list.data.length >= TOP_UPS_LIMIT && " (as mais recentes; filtre para ver outras)"}
      </p>
      <div className="ops-table-wrap">
        <table className="ops-table" aria-label="Recargas da estação">
          <thead>
            <tr>
              <th scope="col">Nº</th>
              <th scope="col">Membro</th>
              <th scope="col">Forma</th>
              <th scope="col">Valor</th>
              <th scope="col">Situação</th>
              <th scope="col">Datas</th>
              <th scope="col">Cobrança</th>
              <th scope="col">Ações</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((topUp) => (
              <TopUpRow key={topUp.id} topUp={topUp} canAct={me.can_act} onChoose={setPending} busy={act.isPending} />
            ))}
          </tbody>
        </table>
      </div>
      {pending && (
        <ConfirmDialog
          title={`${ACTION_LABELS[pending.action]} a recarga ${pending.topUp.id}?`}
          confirmLabel={ACTION_LABELS[pending.action]}
          onConfirm={() => decide(pending)}
          onCancel={() => setPending(null)}
          busy={act.isPending}
        >
          <p>
            {TOP_UP_METHOD_LABELS[pending.topUp.method]} de {formatReais(pending.topUp.amount_cents)} de {pending.topUp.user_name}.
          </p>
          <p>{actionEffect(pending.action, pending.topUp)} A decisão fica registrada na auditoria.</p>
        </ConfirmDialog>
      )}
    </>
  );
}

export function TopUpsPage() {
  const me = useOpsMe();
  const [searchParams, setSearchParams] = useSearchParams();
  // A one-station grant sees its station only: nothing to choose.
  const stationId = me.station ? me.station.id : idFrom(searchParams.get("station_id"));
  const filter: OpsTopUpFilter = { status: statusOf(searchParams.get("status")), method: methodOf(searchParams.get("method")) };

  const apply = (nextStation: number | null, next: OpsTopUpFilter) => setSearchParams(searchOf(me.station ? null : nextStation, next));

  return (
    <>
      <h1 className="ops-title">{TOP_UPS_TITLE}</h1>
      <form className="ops-filters" role="search" aria-label="Filtrar recargas" onSubmit={(event) => event.preventDefault()}>
        {me.station === null && <StationSelect value={stationId} onChange={(id) => apply(id, filter)} />}
        <SelectField
          label="Situação"
          value={filter.status ?? ""}
          onChange={(text) => apply(stationId, { ...filter, status: statusOf(text) })}
        >
          <option value="">Todas</option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {TOP_UP_STATUS_LABELS[status]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Forma de pagamento"
          value={filter.method ?? ""}
          onChange={(text) => apply(stationId, { ...filter, method: methodOf(text) })}
        >
          <option value="">Todas</option>
          {METHODS.map((method) => (
            <option key={method} value={method}>
              {TOP_UP_METHOD_LABELS[method]}
            </option>
          ))}
        </SelectField>
      </form>
      {stationId === null ? (
        <OpsEmpty text="Escolha uma estação para ver as recargas." />
      ) : (
        <TopUpList stationId={stationId} filter={filter} />
      )}
    </>
  );
}
