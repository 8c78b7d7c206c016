// A desk's pages show only where the station offers the desk (its flag on the station's
// answer); elsewhere the address is not found, as the API's 404 and the menu without it.
import type { ReactNode } from "react";
import { NotFoundPage } from "@/components/not-found-page";
import { useStation } from "@/features/stations";
import { offersDesk, type Desk } from "@/features/services/desks";

export function DeskGate({ desk, children }: { desk: Desk; children: ReactNode }) {
  const station = useStation();
  if (!offersDesk(station, desk)) return <NotFoundPage />;
  return <>{children}</>;
}
