// What an activity's page says about the member's access to it (spec 001 section 4,
// "Participation window"), in the server's words and the station's time zone.
import type { ActivityCard } from "@/types/api";

export const DATE_MISSING_TEXT = "Houve um problema com a data de publicação desta atividade.";
export const LIMIT_REACHED_TEXT = "Olá, você já ultrapassou o limite de participações nessa atividade!";

/** DD/MM/YYYY HH:mm on the station's clock (`time_zone`), as the server's window message. */
export function formatWindowMoment(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat("pt-BR", {
    timeZone,
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  })
    .format(new Date(iso))
    .replace(",", "");
}

/** What the detail says about the member's access to the activity; null when it is open. */
export function availabilityText(
  activity: Pick<ActivityCard, "availability" | "participationStart" | "participationEnd">,
  timeZone: string,
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
      return `Esta atividade está disponível de ${formatWindowMoment(participationStart, timeZone)} até ${formatWindowMoment(participationEnd, timeZone)}.`;
    case "date_missing":
      return DATE_MISSING_TEXT;
  }
}
