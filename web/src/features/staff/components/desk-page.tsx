// /ops/desk/:stationId/:desk: one station's service desk. Its tabs follow the desk: the
// members' requests (legal, accounting, health), the cases kept by CPF (legal, accounting),
// the members' theme suggestions (political), news for the desk's page (legal, accounting,
// political) and the CSV imports of an office's records (legal, accounting, health).
// Staff without the right to act on the desk (a viewer) read only.
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { UrlTabs, type UrlTab } from "@/components/url-tabs";
import { useDeskMe } from "@/features/staff/api/desk";
import { DeskAppointments } from "@/features/staff/components/desk-appointments";
import { DeskCases } from "@/features/staff/components/desk-cases";
import { DeskImportsPage } from "@/features/staff/components/desk-imports-page";
import { DeskNews } from "@/features/staff/components/desk-news";
import { DeskSuggestions } from "@/features/staff/components/desk-suggestions";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { idFrom } from "@/features/staff/components/station-select";
import { DESK_LABELS, DESKS_PATH, deskOf, isDeskGrant, type DeskGrant, type DeskName } from "@/features/staff/desk-labels";
import { stationQueryOptions } from "@/features/stations";
import "./desk.css";

export const DESK_READ_ONLY_NOTE = "Seu perfil permite apenas consultar este atendimento.";
export const DESK_NOT_FOUND = "Atendimento não encontrado.";

type DeskTab = "solicitacoes" | "processos" | "sugestoes" | "noticias" | "importacoes";

const TAB_LABELS: Record<DeskTab, string> = {
  solicitacoes: "Solicitações",
  processos: "Processos",
  sugestoes: "Sugestões",
  noticias: "Notícias",
  importacoes: "Importações",
};

const DESK_TABS: Record<DeskName, readonly [DeskTab, ...DeskTab[]]> = {
  legal: ["solicitacoes", "processos", "noticias", "importacoes"],
  accounting: ["solicitacoes", "processos", "noticias", "importacoes"],
  health: ["solicitacoes", "importacoes"],
  political: ["sugestoes", "noticias"],
};

function tabsOf(desk: DeskName): readonly [UrlTab<DeskTab>, ...UrlTab<DeskTab>[]] {
  const [first, ...rest] = DESK_TABS[desk];
  return [{ id: first, label: TAB_LABELS[first] }, ...rest.map((id) => ({ id, label: TAB_LABELS[id] }))];
}

/** The station's clock (`time_zone`), which appointment times are typed and read in. */
function useStationTimeZone(stationId: number) {
  return useQuery({ ...stationQueryOptions(stationId), select: (station) => station.time_zone });
}

function Requests({ grant }: { grant: DeskGrant }) {
  const timeZone = useStationTimeZone(grant.station_id);
  if (timeZone.data === undefined) {
    if (timeZone.isError) return <OpsError title="Não foi possível carregar a estação." query={timeZone} />;
    return <OpsLoading label="Carregando solicitações" />;
  }
  return <DeskAppointments grant={grant} timeZone={timeZone.data} />;
}

function DeskPanel({ grant, tab }: { grant: DeskGrant; tab: DeskTab }) {
  switch (tab) {
    case "solicitacoes":
      return <Requests grant={grant} />;
    case "processos":
      return <DeskCases grant={grant} />;
    case "sugestoes":
      return <DeskSuggestions stationId={grant.station_id} />;
    case "noticias":
      return <DeskNews grant={grant} />;
    case "importacoes":
      // The political desk imports nothing (its tab list has no 'Importações').
      return grant.desk === "political" ? null : <DeskImportsPage stationId={grant.station_id} desk={grant.desk} />;
  }
}

export function DeskPage() {
  const params = useParams();
  const stationId = idFrom(params.stationId ?? null);
  const desk = deskOf(params.desk);
  const deskMe = useDeskMe();

  if (deskMe.data === undefined) {
    if (deskMe.isError) return <OpsError title="Não foi possível carregar os atendimentos." query={deskMe} />;
    return <OpsLoading label="Carregando atendimento" />;
  }
  const grant = deskMe.data.desks.filter(isDeskGrant).find((entry) => entry.station_id === stationId && entry.desk === desk);
  if (!grant) {
    return (
      <>
        <h1 className="ops-title">{DESK_NOT_FOUND}</h1>
        <OpsEmpty text="Este atendimento não existe ou não está ao alcance do seu perfil." />
        <Link to={DESKS_PATH}>Ver os atendimentos</Link>
      </>
    );
  }
  return (
    <>
      <Link className="ops-back" to={DESKS_PATH}>
        Atendimento
      </Link>
      <h1 className="ops-title">
        {DESK_LABELS[grant.desk]} · {grant.station_name}
      </h1>
      {!grant.can_act && (
        <p className="ops-note desk-note" role="note">
          {DESK_READ_ONLY_NOTE}
        </p>
      )}
      <UrlTabs tabs={tabsOf(grant.desk)} label={`Atendimento ${DESK_LABELS[grant.desk]}`}>
        {(tab) => <DeskPanel grant={grant} tab={tab} />}
      </UrlTabs>
    </>
  );
}
