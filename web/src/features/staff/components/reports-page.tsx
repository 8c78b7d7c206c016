// /ops/denuncias: the posts and comments members reported (open or reviewed, by station),
// with what they show, who wrote them, how many reported them and why, and whether they
// are hidden or removed. Support staff keep, hide or remove one after a confirmation;
// viewers only read.
import { useState } from "react";
import { useSearchParams } from "react-router";
import { SelectField } from "@/components/form/fields";
import { useSnackbar } from "@/components/toasts/use-toast";
import type { ReportedItem, ReportState, ReviewDecision } from "@/features/feed";
import { REPORTS_PER_PAGE, useReports, useReviewReport, type ReportsFilter } from "@/features/staff/api/reports";
import { useOpsStations } from "@/features/staff/api/stations";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { Pager } from "@/features/staff/components/pager";
import { countOf } from "@/features/staff/format";
import { pageFromSearch } from "@/features/staff/job-filter";
import { useOpsMe } from "@/features/staff/ops-context";
import { formatDateTime } from "@/lib/dates";
import "./reports-page.css";

const STATE_LABELS: Record<ReportState, string> = { open: "Abertas", reviewed: "Revisadas" };
const EMPTY_TEXT: Record<ReportState, string> = {
  open: "Nenhuma denúncia aberta.",
  reviewed: "Nenhuma denúncia revisada.",
};

const DECISIONS: readonly ReviewDecision[] = ["keep", "hide", "remove"];

const DECISION_TEXT: Record<
  ReviewDecision,
  { button: string; title: string; body: (what: string) => string; done: string; past: string }
> = {
  keep: {
    button: "Manter",
    title: "Manter o conteúdo?",
    body: (what) => `${what} volta a aparecer para os membros e as denúncias são encerradas.`,
    done: "Conteúdo mantido.",
    past: "Mantido",
  },
  hide: {
    button: "Ocultar",
    title: "Ocultar o conteúdo?",
    body: (what) => `${what} fica oculto para todos os membros, inclusive o autor. Ele pode ser mantido depois.`,
    done: "Conteúdo ocultado.",
    past: "Ocultado",
  },
  remove: {
    button: "Remover",
    title: "Remover o conteúdo?",
    body: (what) => `${what} sai de vez do que os membros veem. Esta ação não pode ser desfeita.`,
    done: "Conteúdo removido.",
    past: "Removido",
  },
};

/** "O post 41", "O comentário 5". */
function itemName(item: Pick<ReportedItem, "kind" | "id">): string {
  return item.kind === "post" ? `O post ${item.id}` : `O comentário ${item.id}`;
}

function stationIdFrom(params: URLSearchParams): number | null {
  const text = params.get("station_id")?.trim() ?? "";
  if (!/^\d+$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function filterFrom(params: URLSearchParams): ReportsFilter {
  return {
    state: params.get("state") === "reviewed" ? "reviewed" : "open",
    stationId: stationIdFrom(params),
    page: pageFromSearch(params),
  };
}

/** The address of a filter; the open state and the first page are left out. */
function searchOf({ state, stationId, page }: ReportsFilter): Record<string, string> {
  const search: Record<string, string> = {};
  if (state !== "open") search.state = state;
  if (stationId !== null) search.station_id = String(stationId);
  if (page > 1) search.page = String(page);
  return search;
}

function StationSelect({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const stations = useOpsStations();
  const options = stations.data?.map((station) => ({ id: station.id, name: station.name })) ?? [];
  if (value !== null && !options.some((option) => option.id === value)) {
    options.unshift({ id: value, name: `Estação ${value}` });
  }
  return (
    <SelectField
      label="Estação"
      value={value === null ? "" : String(value)}
      onChange={(text) => onChange(text === "" ? null : Number(text))}
    >
      <option value="">Todas as estações</option>
      {options.map((option) => (
        <option key={option.id} value={option.id}>
          {option.name}
        </option>
      ))}
    </SelectField>
  );
}

function Preview({ item }: { item: ReportedItem }) {
  const { video } = item;
  return (
    <div className="ops-report__content">
      <span className="ops-muted">{item.kind === "post" ? `Post ${item.id}` : `Comentário ${item.id}`}</span>
      {item.description !== "" && <p className="ops-report__text">{item.description}</p>}
      {item.image && <img className="ops-report__media" src={item.image} alt={`Imagem denunciada: ${itemName(item)}`} />}
      {video &&
        (video.url ? (
          <video
            className="ops-report__media"
            controls
            preload="none"
            poster={video.poster ?? undefined}
            src={video.url}
            aria-label={`Vídeo denunciado: ${itemName(item)}`}
          />
        ) : (
          <span className="ops-muted">Vídeo ainda não disponível</span>
        ))}
    </div>
  );
}

function ItemState({ item }: { item: ReportedItem }) {
  let badge;
  if (item.removed) badge = <span className="ops-badge ops-badge--failed">Removido</span>;
  else if (item.hidden) badge = <span className="ops-badge ops-badge--paused">Oculto</span>;
  else badge = <span className="ops-badge ops-badge--succeeded">Visível</span>;
  return (
    <>
      {badge}
      {item.decision && item.reviewedAt && (
        <p className="ops-report__reviewed">
          {DECISION_TEXT[item.decision].past} em {formatDateTime(item.reviewedAt)}
        </p>
      )}
    </>
  );
}

function ItemRow({
  item,
  canAct,
  onDecide,
}: {
  item: ReportedItem;
  canAct: boolean;
  onDecide: (decision: ReviewDecision) => void;
}) {
  return (
    <tr>
      <td>
        <Preview item={item} />
      </td>
      <td>{item.author.name}</td>
      <td>
        <p className="ops-report__count">{countOf(item.reports, "denúncia", "denúncias")}</p>
        <p className="ops-muted">desde {formatDateTime(item.firstReportedAt)}</p>
        {item.reasons.length > 0 ? (
          <ul className="ops-report__reasons" aria-label="Motivos">
            {item.reasons.map((reason, index) => (
              <li key={index}>{reason}</li>
            ))}
          </ul>
        ) : (
          <p className="ops-muted">Sem motivo informado</p>
        )}
      </td>
      <td>
        <ItemState item={item} />
      </td>
      {canAct && (
        <td>
          {/* A removed item is gone for good: nothing left to decide. */}
          {!item.removed && (
            <div className="ops-report__actions">
              {DECISIONS.map((decision) => (
                <button
                  key={decision}
                  type="button"
                  className="button button--secondary ops-button--small"
                  onClick={() => onDecide(decision)}
                >
                  {DECISION_TEXT[decision].button}
                </button>
              ))}
            </div>
          )}
        </td>
      )}
    </tr>
  );
}

export function ReportsPage() {
  const me = useOpsMe();
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = filterFrom(searchParams);
  const reports = useReports(filter);
  const review = useReviewReport();
  const showSnackbar = useSnackbar();
  const [asked, setAsked] = useState<{ item: ReportedItem; decision: ReviewDecision } | null>(null);

  const apply = (next: Partial<ReportsFilter>) => setSearchParams(searchOf({ ...filter, page: 1, ...next }));

  const confirm = () => {
    if (!asked) return;
    const { item, decision } = asked;
    review.mutate(
      { kind: item.kind, id: item.id, decision },
      {
        onSuccess: () => {
          showSnackbar(DECISION_TEXT[decision].done);
          setAsked(null);
        },
        onError: () => setAsked(null),
      },
    );
  };

  let body;
  if (reports.data !== undefined) {
    body =
      reports.data.items.length === 0 ? (
        <OpsEmpty text={EMPTY_TEXT[filter.state]} />
      ) : (
        <>
          <div className="ops-table-wrap">
            <table className="ops-table" aria-label="Denúncias">
              <thead>
                <tr>
                  <th scope="col">Conteúdo</th>
                  <th scope="col">Autor</th>
                  <th scope="col">Denúncias</th>
                  <th scope="col">Situação</th>
                  {me.can_act && <th scope="col">Ação</th>}
                </tr>
              </thead>
              <tbody>
                {reports.data.items.map((item) => (
                  <ItemRow
                    key={`${item.kind}-${item.id}`}
                    item={item}
                    canAct={me.can_act}
                    onDecide={(decision) => setAsked({ item, decision })}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={filter.page}
            perPage={REPORTS_PER_PAGE}
            total={reports.data.total}
            onPage={(page) => apply({ page })}
          />
        </>
      );
  } else if (reports.isError) {
    body = <OpsError title="Não foi possível carregar as denúncias." query={reports} />;
  } else {
    body = <OpsLoading label="Carregando denúncias" />;
  }

  return (
    <>
      <h1 className="ops-title">Denúncias</h1>
      <form className="ops-filters" role="search" aria-label="Filtrar denúncias" onSubmit={(event) => event.preventDefault()}>
        <SelectField
          label="Situação"
          value={filter.state}
          onChange={(state) => apply({ state: state === "reviewed" ? "reviewed" : "open" })}
        >
          {(Object.keys(STATE_LABELS) as ReportState[]).map((state) => (
            <option key={state} value={state}>
              {STATE_LABELS[state]}
            </option>
          ))}
        </SelectField>
        {/* A one-station grant sees one station only: nothing to choose. */}
        {me.station === null && <StationSelect value={filter.stationId} onChange={(stationId) => apply({ stationId })} />}
      </form>
      {body}
      {asked && (
        <ConfirmDialog
          title={DECISION_TEXT[asked.decision].title}
          confirmLabel={DECISION_TEXT[asked.decision].button}
          onConfirm={confirm}
          onCancel={() => setAsked(null)}
          busy={review.isPending}
        >
          <p>{DECISION_TEXT[asked.decision].body(itemName(asked.item))}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
