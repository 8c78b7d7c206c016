import { createContext, useContext } from "react";
import type { Station } from "@/types/api";

export const StationContext = createContext<Station | null>(null);

/** The station this app is serving; available below StationProvider. */
export function useStation(): Station {
  const station = useContext(StationContext);
  if (station === null) throw new Error("useStation must be used inside StationProvider");
  return station;
}
