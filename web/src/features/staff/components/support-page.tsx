// /ops/suporte: a station's support messages ('Fale conosco'), newest first, paged, open or
// answered. Support staff answer an open one (e-mailed to its sender, audited); viewers only
// read. The station, the filter and the page are in the address.
import { useId, useState } from "react";
import { useSearchParams } from "react-router";
import { SelectField } from "@/components/form/fields";
import { useSnackbar } from "@/components/toasts/use-toast";
import {
  useAnswerSupportMessage,
  useSupportMessages,
  type OpsSupportMessage,
  type OpsSupportStatus,
} from "@/features/staff/api/support";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { Pager } from "@/features/staff/components/pager";
import { StationSelect, idFrom } from "@/features/staff/components/station-select";
import { countOf } from "@/features/staff/format";
import { pageFromSearch } from "@/features/staff/job-filter";
import { useOpsMe } from "@/features/staff/ops-context";
import { formatDateTime } from "@/lib/dates";

export const SUPPORT_TITLE = "Mensagens de suporte";
export const ANSWER_MAX = 4000;
export const ANSWER_SENT = "Resposta enviada.";

const STATUS_LABELS: Record<OpsSupportStatus, string> = { open: "Aberta", answered: "Respondida" };

function statusOf(text: string | null): OpsSupportStatus | null {
  return text === "open" || text === "answered" ? text : null;
}

function AnswerForm({ message }: { message: OpsSupportMessage }) {
  const [answer, setAnswer] = useState("");
  const send = useAnswerSupportMessage();
  const showSnackbar = useSnackbar();
  const id = useId();
  const length = [...answer].length;
  const ready = answer.trim() !== "" && length <= ANSWER_MAX && !send.isPending;
  return (
    <form
      className="ops-support__answer"
      onSubmit={(event) => {
        event.preventDefault();
        if (!ready) return;
        send.mutate({ id: message.id, answer: answer.trim() }, { onSuccess: () => showSnackbar(ANSWER_SENT) });
      }}
    >
      <label className="field__label" htmlFor={id}>
        Resposta para {message.email}
      </label>
      <textarea
        id={id}
        className="field__input"
        rows={4}
        value={answer}
        aria-describedby={`${id}-count`}
        onChange={(event) => setAnswer(event.target.value)}
      />
      <span id={`${id}-count`} className="field__hint">
        {length}/{ANSWER_MAX}
      </span>
      <div className="ops-actions">
        <button type="submit" className="button button--primary" disabled={!ready} aria-busy={send.isPending}>
          {send.isPending ? "Enviando..." : "Enviar resposta"}
        </button>
      </div>
    </form>
  );
}

function MessageCard({ message, canAct }: { message: OpsSupportMessage; canAct: boolean }) {
  const status: OpsSupportStatus = message.answered_at ? "answered" : "open";
  return (
    <article className="ops-card ops-support" aria-labelledby={`support-${message.id}`}>
      <header className="ops-card__header">
        <h2 className="ops-card__title" id={`support-${message.id}`}>
          {message.subject}
        </h2>
        <span className={`ops-badge ops-badge--${status === "open" ? "retrying" : "succeeded"}`}>{STATUS_LABELS[status]}</span>
      </header>
      <p className="ops-muted">
        Nº {message.id} · {formatDateTime(message.created_at)} · {message.name} ({message.email}
        {message.phone ? `, ${message.phone}` : ""}) · {message.user_id === null ? "visitante" : `membro ID ${message.user_id}`}
        {!message.station_mailed && " · não enviada por e-mail (a estação não tem e-mail de contato)"}
      </p>
      <p className="ops-support__text">{message.message}</p>
      {message.answered_at ? (
        <div className="ops-support__reply">
          <p className="ops-muted">
            Respondida em {formatDateTime(message.answered_at)} por {message.answered_by_name ?? `ID ${message.answered_by ?? "—"}`}
          </p>
          <p className="ops-support__text">{message.answer}</p>
        </div>
      ) : (
        canAct && <AnswerForm message={message} />
      )}
    </article>
  );
}

function MessageList({ stationId, status, page, onPage }: { stationId: number; status: OpsSupportStatus | null; page: number; onPage: (page: number) => void }) {
  const me = useOpsMe();
  const list = useSupportMessages(stationId, status, page);
  if (list.data === undefined) {
    if (list.isError) return <OpsError title="Não foi possível carregar as mensagens." query={list} />;
    return <OpsLoading label="Carregando mensagens" />;
  }
  if (list.data.messages.length === 0) {
    return <OpsEmpty text={status ? "Nenhuma mensagem com este filtro nesta estação." : "Nenhuma mensagem nesta estação."} />;
  }
  return (
    <>
      <p className="ops-muted">{countOf(list.data.total, "mensagem", "mensagens")}</p>
      <div className="ops-support__list">
        {list.data.messages.map((message) => (
          <MessageCard key={message.id} message={message} canAct={me.can_act} />
        ))}
      </div>
      <Pager page={page} perPage={list.data.per_page} total={list.data.total} onPage={onPage} />
    </>
  );
}

export function SupportPage() {
  const me = useOpsMe();
  const [searchParams, setSearchParams] = useSearchParams();
  // A one-station grant sees its station only: nothing to choose.
  const stationId = me.station ? me.station.id : idFrom(searchParams.get("station_id"));
  const status = statusOf(searchParams.get("status"));
  const page = pageFromSearch(searchParams);

  const apply = (nextStation: number | null, nextStatus: OpsSupportStatus | null, nextPage = 1) => {
    const search: Record<string, string> = {};
    if (!me.station && nextStation !== null) search.station_id = String(nextStation);
    if (nextStatus) search.status = nextStatus;
    if (nextPage > 1) search.page = String(nextPage);
    setSearchParams(search);
  };

  return (
    <>
      <h1 className="ops-title">{SUPPORT_TITLE}</h1>
      <form className="ops-filters" role="search" aria-label="Filtrar mensagens" onSubmit={(event) => event.preventDefault()}>
        {me.station === null && <StationSelect value={stationId} onChange={(id) => apply(id, status)} />}
        <SelectField label="Situação" value={status ?? ""} onChange={(text) => apply(stationId, statusOf(text))}>
          <option value="">Todas</option>
          <option value="open">{STATUS_LABELS.open}</option>
          <option value="answered">{STATUS_LABELS.answered}</option>
        </SelectField>
      </form>
      {stationId === null ? (
        <OpsEmpty text="Escolha uma estação para ver as mensagens." />
      ) : (
        <MessageList stationId={stationId} status={status} page={page} onPage={(next) => apply(stationId, status, next)} />
      )}
    </>
  );
}
