// The service desk's answers as docs/api-services.md ("The desk in the console") describes
// them, and a console stubbed for a staff member with a console grant or a desk grant only.
import { OPS_ME, stubOps } from "@/features/staff/testing/ops-fixtures";
import type { DeskGrant } from "@/features/staff/desk-labels";
import type { DeskAppointment, DeskCase, DeskMe, DeskSuggestion } from "@/types/api";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildStation, jsonResponse, signIn } from "@/testing/fixtures";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

export const DESK_ME = "GET /api/ops/desk/me";
/** The desk's station answers its clock: Manaus, an hour behind Brasília. */
export const DESK_STATION = "GET /api/stations/1";
export const DESK_TIME_ZONE = "America/Manaus";

export function buildDeskGrant(overrides: Partial<DeskGrant> = {}): DeskGrant {
  return { station_id: 1, station_name: "Clube Filia Demo", desk: "legal", can_act: true, ...overrides };
}

export function buildDeskMe(overrides: Partial<DeskMe> = {}): DeskMe {
  return {
    user: { id: 2, name: "Equipe Demo" },
    desks: [buildDeskGrant(), buildDeskGrant({ desk: "health" }), buildDeskGrant({ desk: "political" })],
    ...overrides,
  };
}

export function buildDeskAppointment(overrides: Partial<DeskAppointment> = {}): DeskAppointment {
  return {
    id: 12,
    station_id: 1,
    service: "legal",
    cpf: "52998224725",
    member: { id: 7, name: "Membro Demo", email: "membro@demo.filia.com.br" },
    preferred_day: "Quinta-feira",
    description: "Dúvida sobre férias",
    phone: null,
    status: "requested",
    scheduled_at: null,
    office: null,
    cancelled_by: null,
    created_at: "2026-11-28T15:00:00Z",
    copay: null,
    ...overrides,
  };
}

export function buildDeskCase(overrides: Partial<DeskCase> = {}): DeskCase {
  return {
    id: 3,
    station_id: 1,
    service: "legal",
    cpf: "52998224725",
    case_number: "0001234-56.2025.5.02.0001",
    kind: "Trabalhista",
    situation: "Em andamento",
    filed_on: "2025-03-14",
    court: "TRT-2",
    title: "Horas extras",
    claim_cents: 1250000,
    link: "https://pje.trt2.jus.br/processo/1",
    collective: false,
    updated_at: "2026-11-20T12:00:00Z",
    ...overrides,
  };
}

export function buildDeskSuggestion(overrides: Partial<DeskSuggestion> = {}): DeskSuggestion {
  return {
    id: 4,
    member: { id: 7, name: "Membro Demo", email: "membro@demo.filia.com.br" },
    description: "Debater a reforma da previdência dos servidores.",
    created_at: "2026-11-25T13:00:00Z",
    ...overrides,
  };
}

/** A page of a paged desk list (`key` is its array's name). */
export function deskPage(key: "appointments" | "cases" | "suggestions", items: unknown[], total = items.length) {
  return () => jsonResponse({ [key]: items, total, page: 1, per_page: 20 });
}

/** Staff with a console grant (support, every station) who also reach the desks of `deskMe`. */
export function stubDeskConsole(handlers: Record<string, ApiHandler> = {}, deskMe: Partial<DeskMe> = {}) {
  return stubOps({
    [DESK_ME]: () => jsonResponse(buildDeskMe(deskMe)),
    [DESK_STATION]: () => jsonResponse(buildStation({ id: 1, time_zone: DESK_TIME_ZONE })),
    ...handlers,
  });
}

/** Staff whose only grant is a desk's: /api/ops/me refuses them, /api/ops/desk/me lists the desk. */
export function stubDeskOnly(handlers: Record<string, ApiHandler> = {}, deskMe: Partial<DeskMe> = {}) {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn({ name: "Ana Advogada", email: "ana@alveslima.example", role: "staff", type_id: 1 });
  return stubApi({
    [OPS_ME]: () => jsonResponse({ error: "Acesso restrito à equipe de suporte." }, 403),
    [DESK_ME]: () => jsonResponse(buildDeskMe({ user: { id: 9, name: "Ana Advogada" }, desks: [buildDeskGrant()], ...deskMe })),
    [DESK_STATION]: () => jsonResponse(buildStation({ id: 1, time_zone: DESK_TIME_ZONE })),
    ...handlers,
  });
}
