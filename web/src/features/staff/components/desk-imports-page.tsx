// Placeholder so the desk page compiles until the CSV imports page (built alongside, same
// path and props) lands; it replaces this file.
import type { DeskName } from "@/features/staff/api/desk-types";

export function DeskImportsPage({ stationId, desk }: { stationId: number; desk: DeskName }) {
  return <p className="ops-empty" data-station={stationId} data-desk={desk}>Importações em breve.</p>;
}
