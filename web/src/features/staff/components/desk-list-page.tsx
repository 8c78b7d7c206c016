// /ops/desk ('Atendimento'): the service desks the staff member reaches (GET
// /api/ops/desk/me), each a link to its page; a console grant lists every desk of its
// stations, a desk grant its own.
import { Link } from "react-router";
import { useDeskMe } from "@/features/staff/api/desk";
import { OpsEmpty, OpsError, OpsLoading } from "@/features/staff/components/ops-states";
import { DESKS_LABEL, deskLabel } from "@/features/staff/desk-labels";
import { ApiError } from "@/lib/api-client";
import type { DeskOpen } from "@/types/api";
import "./desk.css";

export const DESKS_TITLE = DESKS_LABEL;
export const NO_DESKS = "Nenhum atendimento disponível para o seu perfil.";

/** The address of a desk's page. */
export function deskPagePath(grant: Pick<DeskOpen, "station_id" | "desk">): string {
  return `/ops/desk/${grant.station_id}/${grant.desk}`;
}

/** The desks grouped by station, in the order the API lists them. */
function byStation(desks: DeskOpen[]): Array<{ id: number; name: string; desks: DeskOpen[] }> {
  const stations: Array<{ id: number; name: string; desks: DeskOpen[] }> = [];
  for (const grant of desks) {
    let station = stations.find((entry) => entry.id === grant.station_id);
    if (!station) {
      station = { id: grant.station_id, name: grant.station_name, desks: [] };
      stations.push(station);
    }
    station.desks.push(grant);
  }
  return stations;
}

export function DesksPage() {
  const deskMe = useDeskMe();

  let body;
  if (deskMe.data !== undefined) {
    body =
      deskMe.data.desks.length === 0 ? (
        <OpsEmpty text={NO_DESKS} />
      ) : (
        byStation(deskMe.data.desks).map((station) => (
          <section key={station.id} className="ops-card desk-list" aria-labelledby={`desk-station-${station.id}`}>
            <h2 className="ops-card__title" id={`desk-station-${station.id}`}>
              {station.name}
            </h2>
            <ul className="desk-list__items">
              {station.desks.map((grant) => (
                <li key={grant.desk}>
                  <Link to={deskPagePath(grant)}>{deskLabel(grant.desk)}</Link>
                  {!grant.can_act && <span className="ops-muted"> (somente consulta)</span>}
                </li>
              ))}
            </ul>
          </section>
        ))
      );
  } else if (deskMe.isError) {
    // A console grant whose stations offer no desk answers 403: nothing to list.
    body =
      deskMe.error instanceof ApiError && deskMe.error.status === 403 ? (
        <OpsEmpty text={NO_DESKS} />
      ) : (
        <OpsError title="Não foi possível carregar os atendimentos." query={deskMe} />
      );
  } else {
    body = <OpsLoading label="Carregando atendimentos" />;
  }

  return (
    <>
      <h1 className="ops-title">{DESKS_TITLE}</h1>
      {body}
    </>
  );
}
