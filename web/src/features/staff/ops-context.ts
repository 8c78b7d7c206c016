import { createContext, useContext } from "react";
import type { OpsMe } from "@/types/api";

export const OpsMeContext = createContext<OpsMe | null>(null);

/** The signed-in staff member; available inside the console's layout. */
export function useOpsMe(): OpsMe {
  const me = useContext(OpsMeContext);
  if (me === null) throw new Error("useOpsMe must be used inside the console layout");
  return me;
}

/** Pausing queues belongs to support staff of every station. */
export function canPauseQueues(me: OpsMe): boolean {
  return me.can_act && me.station === null;
}
