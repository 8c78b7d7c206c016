// What an activity's page says about the member's access to it (spec 001 section 4,
// "Participation window"), in the server's words and Brasília time.
import type { ActivityCard } from "@/types/api";

export const DATE_MISSING_TEXT = "Houve um problema com a data de publicação desta atividade.";
export const LIMIT_REACHED_TEXT = "Olá, você já ultrapassou o limite de participações nessa atividade!";

// The server's window message is in Brasília time (docs/api-activities.md), so is the web's.
const WINDOW_FORMAT = new Intl.DateTimeFormat("pt-BR", {
  timeZone: "America/Sao_Paulo",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** DD/MM/YYYY HH:mm in Brasília time. */
export function formatWindowMoment(iso: string): string {
  return WINDOW_FORMAT.format(new Date(iso)).replace(",", "");
}

/** What the detail says about the member's access to the activity; null when it is open. */
export function availabilityText(
  activity: Pick<ActivityCard, "availability" | "participationStart" | "participationEnd">,
): string | null {
  const { availability, participationStart, participationEnd } = activity;
  switch (availability) {
    case "open":
      return null;
    case "limit_reached":
      return LIMIT_REACHED_TEXT;
    case "not_started":
    case "ended":
      if (participationStart === null || participationEnd === null) return DATE_MISSING_TEXT;
      return `Esta atividade está disponível de ${formatWindowMoment(participationStart)} até ${formatWindowMoment(participationEnd)}.`;
    case "date_missing":
      return DATE_MISSING_TEXT;
  }
}
