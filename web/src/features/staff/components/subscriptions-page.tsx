// /ops/assinaturas: a station's subscriptions (plans and type 21), newest first, one
// member's on request, each with its periods and every try at the provider. Support staff
// try an unpaid renewal now or cancel a subscription (after a confirmation); viewers only
// read. The station and the member are in the address.
import { useState, type FormEvent, type ReactNode } from "react";
import { useSearchParams } from "react-router";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { TextField } from "@/components/form/fields";
import { useSnackbar } from "@/components/toasts/use-toast";
import {
  useStationSubscriptions,
  useSubscriptionAction,
  type OpsSubscription,
  type OpsSubscriptionPeriod,
} from "@/features/staff/api/subscriptions";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { StationSelect, idFrom } from "@/features/staff/components/station-select";
import { countOf, formatReais } from "@/features/staff/format";
import { useOpsMe } from "@/features/staff/ops-context";
import {
  canCancel,
  canRetry,
  labelOf,
  PERIOD_KIND_LABELS,
  PERIOD_STATUS_LABELS,
  RECURRENCE_LABELS,
  cardOf,
  subjectOf,
  SUBSCRIPTION_STATUS_BADGES,
  SUBSCRIPTION_STATUS_LABELS,
  takenBackOf,
  TRY_STATUS_LABELS,
} from "@/features/staff/subscription-labels";
import { formatDateTime } from "@/lib/dates";
import "./subscriptions-page.css";

/** The most subscriptions one answer holds (api/src/routes/staff/subscriptions.rs, LIMIT). */
export const SUBSCRIPTIONS_LIMIT = 200;
export const MEMBER_ID_INVALID = "Informe o número do membro (só dígitos).";
export const RETRY_DONE = "Cobrança pedida: o resultado aparece nos períodos em instantes.";
export const CANCEL_DONE = "Assinatura cancelada.";

function searchOf(stationId: number | null, userId: number | null): Record<string, string> {
  const search: Record<string, string> = {};
  if (stationId !== null) search.station_id = String(stationId);
  if (userId !== null) search.user_id = String(userId);
  return search;
}

/** The filters: the member's applies on "Filtrar" (or Enter); "Limpar" shows every member again. */
function MemberFilter({
  initial,
  onApply,
  children,
}: {
  initial: number | null;
  onApply: (userId: number | null) => void;
  /** Fields that apply on their own (the station), before the member's. */
  children?: ReactNode;
}) {
  const [text, setText] = useState(initial === null ? "" : String(initial));
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = text.trim();
    const userId = idFrom(trimmed);
    if (trimmed !== "" && userId === null) {
      setError(MEMBER_ID_INVALID);
      return;
    }
    setError(undefined);
    onApply(userId);
  };

  return (
    <form className="ops-filters" role="search" aria-label="Filtrar assinaturas" onSubmit={submit}>
      {children}
      <TextField label="ID do membro" inputMode="numeric" value={text} onChange={setText} error={error} />
      <div className="ops-filters__actions">
        <button type="submit" className="button button--primary">
          Filtrar
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            setText("");
            setError(undefined);
            onApply(null);
          }}
        >
          Limpar
        </button>
      </div>
    </form>
  );
}

function PeriodRow({ period }: { period: OpsSubscriptionPeriod }) {
  return (
    <tr>
      <td>{period.period_index}</td>
      <td>{labelOf(PERIOD_KIND_LABELS, period.kind)}</td>
      <td>
        {formatDateTime(period.starts_at)} a {formatDateTime(period.ends_at)}
      </td>
      <td>{formatReais(period.amount)}</td>
      <td>
        {labelOf(PERIOD_STATUS_LABELS, period.status)}
        {period.paid_at && <span className="ops-muted"> em {formatDateTime(period.paid_at)}</span>}
      </td>
      <td>{period.attempts}</td>
      <td>{formatDateTime(period.next_attempt_at)}</td>
      <td>
        {period.tries.length === 0 ? (
          <span className="ops-muted">Nenhuma</span>
        ) : (
          <ol className="ops-tries" aria-label={`Cobranças do período ${period.period_index}`}>
            {period.tries.map((attempt) => (
              <li key={attempt.id}>
                Tentativa {attempt.attempt} · {labelOf(TRY_STATUS_LABELS, attempt.status)} ·{" "}
                {formatReais(attempt.amount)}
                <span className="ops-muted">
                  {" "}
                  · {formatDateTime(attempt.created_at)}
                  {attempt.settled_at && ` → ${formatDateTime(attempt.settled_at)}`}
                  {attempt.gateway_charge_id && ` · ${attempt.gateway_charge_id}`}
                </span>
                {attempt.failure_reason && <p className="ops-tries__reason">{attempt.failure_reason}</p>}
                {takenBackOf(attempt) && <p className="ops-tries__reason">{takenBackOf(attempt)}</p>}
              </li>
            ))}
          </ol>
        )}
      </td>
    </tr>
  );
}

function PeriodsTable({ subscription }: { subscription: OpsSubscription }) {
  if (subscription.periods.length === 0) return <OpsEmpty text="Nenhum período ainda." />;
  return (
    <div className="ops-table-wrap">
      <table className="ops-table" aria-label={`Períodos da assinatura ${subscription.id}`}>
        <thead>
          <tr>
            <th scope="col">Nº</th>
            <th scope="col">Tipo</th>
            <th scope="col">Vigência</th>
            <th scope="col">Valor</th>
            <th scope="col">Situação</th>
            <th scope="col">Tentativas</th>
            <th scope="col">Próxima tentativa</th>
            <th scope="col">Cobranças</th>
          </tr>
        </thead>
        <tbody>
          {subscription.periods.map((period) => (
            <PeriodRow key={period.id} period={period} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What cancelling does to this subscription, as the server's cancel decides it. */
function cancelText(subscription: OpsSubscription): string {
  const effect =
    subscription.status === "active"
      ? `${subscription.user_name} mantém o acesso até ${formatDateTime(subscription.current_period_end)} e a assinatura não é renovada.`
      : `A assinatura de ${subscription.user_name} termina agora e as cobranças em aberto são canceladas.`;
  return `${effect} O cancelamento fica registrado na auditoria.`;
}

function SubscriptionCard({
  subscription,
  canAct,
  expanded,
}: {
  subscription: OpsSubscription;
  canAct: boolean;
  expanded: boolean;
}) {
  const action = useSubscriptionAction();
  const showSnackbar = useSnackbar();
  const [confirming, setConfirming] = useState(false);
  const titleId = `ops-subscription-${subscription.id}`;
  const retryable = canAct && canRetry(subscription);
  const cancellable = canAct && canCancel(subscription);

  const retry = () =>
    action.mutate({ id: subscription.id, action: "retry" }, { onSuccess: () => showSnackbar(RETRY_DONE) });
  const cancel = () =>
    action.mutate(
      { id: subscription.id, action: "cancel" },
      { onSuccess: () => showSnackbar(CANCEL_DONE), onSettled: () => setConfirming(false) },
    );

  return (
    <article className="ops-card ops-subscription" aria-labelledby={titleId}>
      <header className="ops-card__header">
        <h2 id={titleId} className="ops-card__title">
          Assinatura {subscription.id}
        </h2>
        <span className={`ops-badge ops-badge--${SUBSCRIPTION_STATUS_BADGES[subscription.status] ?? "unknown"}`}>
          {labelOf(SUBSCRIPTION_STATUS_LABELS, subscription.status)}
        </span>
      </header>
      {subscription.cancel_at_period_end && (
        <p className="ops-card__note">
          Cancelada: termina em {formatDateTime(subscription.current_period_end)}, sem renovar.
        </p>
      )}
      <dl className="ops-facts ops-subscription__facts">
        <div>
          <dt>Membro</dt>
          <dd>
            {subscription.user_name} <span className="ops-muted">(ID {subscription.user_id})</span>
          </dd>
        </div>
        <div>
          <dt>{subscription.plan_id !== null ? "Plano" : "Atividade e produto"}</dt>
          <dd>
            {subjectOf(subscription)}
            {subscription.next_plan_id !== null && (
              <span className="ops-muted">
                {" "}
                · passa ao plano {subscription.next_plan_name ?? subscription.next_plan_id} na renovação
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>Cartão</dt>
          <dd>{cardOf(subscription)}</dd>
        </div>
        <div>
          <dt>Valor por período</dt>
          <dd>
            {formatReais(subscription.amount)}{" "}
            <span className="ops-muted">({labelOf(RECURRENCE_LABELS, subscription.recurrence)})</span>
          </dd>
        </div>
        <div>
          <dt>Período atual</dt>
          <dd>
            Nº {subscription.current_period}: {formatDateTime(subscription.current_period_start)} a{" "}
            {formatDateTime(subscription.current_period_end)}
          </dd>
        </div>
        <div>
          <dt>Criada em</dt>
          <dd>{formatDateTime(subscription.created_at)}</dd>
        </div>
      </dl>
      {(retryable || cancellable) && (
        <div className="ops-actions">
          {retryable && (
            <button
              type="button"
              className="button button--primary"
              disabled={action.isPending}
              aria-busy={action.isPending}
              onClick={retry}
            >
              Tentar cobrar agora
            </button>
          )}
          {cancellable && (
            <button
              type="button"
              className="button button--secondary"
              disabled={action.isPending}
              onClick={() => setConfirming(true)}
            >
              Cancelar assinatura
            </button>
          )}
        </div>
      )}
      <details className="ops-subscription__periods" open={expanded}>
        <summary>Períodos ({subscription.periods.length})</summary>
        <PeriodsTable subscription={subscription} />
      </details>
      {confirming && (
        <ConfirmDialog
          title={`Cancelar a assinatura ${subscription.id}?`}
          confirmLabel="Cancelar assinatura"
          onConfirm={cancel}
          onCancel={() => setConfirming(false)}
          busy={action.isPending}
        >
          <p>{cancelText(subscription)}</p>
        </ConfirmDialog>
      )}
    </article>
  );
}

function SubscriptionList({ stationId, userId }: { stationId: number; userId: number | null }) {
  const me = useOpsMe();
  const list = useStationSubscriptions(stationId, userId);

  if (list.data !== undefined) {
    if (list.data.length === 0) {
      return (
        <OpsEmpty
          text={userId === null ? "Nenhuma assinatura nesta estação." : "Nenhuma assinatura deste membro nesta estação."}
        />
      );
    }
    // One member's few subscriptions open at once; a whole station's list stays compact.
    const expanded = userId !== null || list.data.length === 1;
    return (
      <>
        <p className="ops-muted">
          {countOf(list.data.length, "assinatura", "assinaturas")}
          {list.data.length >= SUBSCRIPTIONS_LIMIT && " (as mais recentes; filtre por membro para ver outras)"}
        </p>
        <div className="ops-subscriptions">
          {list.data.map((subscription) => (
            <SubscriptionCard
              key={subscription.id}
              subscription={subscription}
              canAct={me.can_act}
              expanded={expanded}
            />
          ))}
        </div>
      </>
    );
  }
  if (list.isError) return <OpsError title="Não foi possível carregar as assinaturas." query={list} />;
  return <OpsLoading label="Carregando assinaturas" />;
}

export function SubscriptionsPage() {
  const me = useOpsMe();
  const [searchParams, setSearchParams] = useSearchParams();
  // A one-station grant sees its station only: nothing to choose.
  const stationId = me.station ? me.station.id : idFrom(searchParams.get("station_id"));
  const userId = idFrom(searchParams.get("user_id"));

  const apply = (nextStation: number | null, nextUser: number | null) =>
    setSearchParams(searchOf(me.station ? null : nextStation, nextUser));

  return (
    <>
      <h1 className="ops-title">Assinaturas</h1>
      {/* Re-mounted when the address changes, so the field shows the filter in force. */}
      <MemberFilter key={userId ?? ""} initial={userId} onApply={(id) => apply(stationId, id)}>
        {me.station === null && <StationSelect value={stationId} onChange={(id) => apply(id, userId)} />}
      </MemberFilter>
      {stationId === null ? (
        <OpsEmpty text="Escolha uma estação para ver as assinaturas." />
      ) : (
        <SubscriptionList stationId={stationId} userId={userId} />
      )}
    </>
  );
}
