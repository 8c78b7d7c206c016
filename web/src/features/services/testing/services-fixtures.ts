// The member services' answers as docs/api-services.md shows them, for the signed-in member
// of the demo station (id 7).
import type { LegalProcess, ServiceAppointment, ServiceNewsItem, ServicePage } from "@/types/api";
import { buildStation } from "@/testing/fixtures";

export const LEGAL_STATION = buildStation({ legal_access: true });
export const ACCOUNTING_STATION = buildStation({ accounting_access: true });

export const LEGAL_PAGE_CALL = "GET /api/services/legal";
export const ACCOUNTING_PAGE_CALL = "GET /api/services/accounting";
export const LEGAL_PROCESSES_CALL = "GET /api/legal-processes";
export const ACCOUNTING_PROCESSES_CALL = "GET /api/accounting-processes";
export const LEGAL_APPOINTMENTS_CALL = "GET /api/legal-appointments";
export const ACCOUNTING_APPOINTMENTS_CALL = "GET /api/accounting-appointments";
export const REQUEST_LEGAL_CALL = "POST /api/legal-appointments";
export const REQUEST_ACCOUNTING_CALL = "POST /api/accounting-appointments";
export const CANCEL_LEGAL_CALL = "POST /api/cancel-legal-appointments";
export const legalNewsCall = (page: number) => `GET /api/legal/news?page=${page}&tagId=13752`;
export const accountingNewsCall = (page: number) => `GET /api/accounting/news?page=${page}&tagId=13754`;

export function buildLegalProcess(overrides: Partial<LegalProcess> = {}): LegalProcess {
  return {
    id: 3,
    numeroProcesso: "0001234-56.2025.5.02.0001",
    tipo: "Trabalhista",
    situacao: "Em andamento",
    dataProtocolo: "2025-03-14",
    tribunalOrgao: "TRT-2",
    titulo: "Horas extras",
    valorCausa: 1_250_000,
    linkProcesso: "https://pje.example/processo/1",
    publicadoPortal: true,
    ...overrides,
  };
}

/** A confirmed appointment on 03/12/2026 at 09:00 in Brasília, cancelable. */
export function buildAppointment(overrides: Partial<ServiceAppointment> = {}): ServiceAppointment {
  return {
    id: 9,
    data: "2099-12-03T12:00:00Z",
    horaInicio: "09:00",
    status: "confirmed",
    situacao: "Agendado",
    diaPreferido: "Quinta-feira",
    descricao: "Dúvida sobre férias",
    conclusao: { isFiliadoAusente: false },
    escritorio: { id: 2, nome: "Alves & Lima Advogados" },
    cancelavel: true,
    ...overrides,
  };
}

export function buildNewsItem(overrides: Partial<ServiceNewsItem> = {}): ServiceNewsItem {
  return {
    id: 4,
    date: "2026-11-20T12:00:00Z",
    title: { rendered: "Novo acordo coletivo" },
    content: { rendered: "<p>O sindicato assinou o <strong>acordo</strong>.</p>" },
    subtitle: "Reajuste de 6%",
    image: "/api/media/demo/news/4.png",
    image_srcset: null,
    ...overrides,
  };
}

/** `count` news items with ids from `firstId`. */
export function newsPage(count: number, firstId = 1): ServiceNewsItem[] {
  return Array.from({ length: count }, (_, index) =>
    buildNewsItem({ id: firstId + index, title: { rendered: `Notícia ${firstId + index}` } }),
  );
}

export function buildServicePage(overrides: Partial<ServicePage> = {}): ServicePage {
  return {
    desk: "legal",
    contatos: [{ name: "Dra. Marina Alves", role: "Advogada trabalhista", email: "juridico@example.com", phone: "1133334444" }],
    orientacoes: "Agende pelo portal.\n\nLeve seus documentos.",
    informacoes: "Informações do serviço.",
    playlists: [{ slug: "videos", title: "Vídeos do jurídico", url: "https://www.youtube.com/embed/videoseries?list=PL123" }],
    categoria: null,
    ...overrides,
  };
}
