import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ANSWER_SENT, SUPPORT_TITLE } from "@/features/staff/components/support-page";
import { buildOpsStation, OPS_STATIONS, renderOps, stubOps, VIEWER } from "@/features/staff/testing/ops-fixtures";
import { jsonResponse } from "@/testing/fixtures";
import type { ApiHandler } from "@/testing/stub-api";
import type { OpsMe, OpsSupportMessage } from "@/types/api";

const LIST = "GET /api/ops/stations/1/support-messages?page=1&per_page=20";
const OPEN = "GET /api/ops/stations/1/support-messages?page=1&per_page=20&status=open";
const ANSWER = "POST /api/ops/support-messages/31/answer";
const PAGE = "/ops/suporte?station_id=1";

function buildMessage(overrides: Partial<OpsSupportMessage> = {}): OpsSupportMessage {
  return {
    id: 31,
    station_id: 1,
    user_id: null,
    name: "Ana Souza",
    email: "ana@example.com",
    phone: "11987654321",
    subject: "Meu cartão",
    message: "Não recebi meu cartão.",
    station_mailed: true,
    answer: null,
    answered_by: null,
    answered_by_name: null,
    answered_at: null,
    created_at: "2026-12-10T12:00:00Z",
    ...overrides,
  };
}

const ANSWERED = buildMessage({
  id: 30,
  subject: "Pontos",
  answer: "Seus pontos já estão na carteira.",
  answered_by: 2,
  answered_by_name: "Equipe Demo",
  answered_at: "2026-12-10T13:00:00Z",
});

const page = (messages: OpsSupportMessage[]) => () => jsonResponse({ messages, total: messages.length, page: 1, per_page: 20 });

function stubSupport(handlers: Record<string, ApiHandler>, me: Partial<OpsMe> = {}) {
  return stubOps({ [OPS_STATIONS]: () => jsonResponse([buildOpsStation()]), ...handlers }, me);
}

describe("support messages console", () => {
  it("lists the station's messages and answers an open one", async () => {
    const api = stubSupport({
      [LIST]: page([buildMessage(), ANSWERED]),
      [ANSWER]: () => jsonResponse(buildMessage({ answer: "Enviamos hoje.", answered_at: "2026-12-10T14:00:00Z" })),
    });
    await renderOps(PAGE);
    expect(await screen.findByRole("heading", { level: 1, name: SUPPORT_TITLE })).toBeInTheDocument();
    expect(await screen.findByRole("heading", { level: 2, name: "Meu cartão" })).toBeInTheDocument();
    expect(screen.getByText("Seus pontos já estão na carteira.")).toBeInTheDocument();
    expect(screen.getAllByLabelText(/Resposta para/)).toHaveLength(1);

    const send = screen.getByRole("button", { name: "Enviar resposta" });
    expect(send).toBeDisabled();
    fireEvent.change(screen.getByLabelText("Resposta para ana@example.com"), { target: { value: " Enviamos hoje. " } });
    fireEvent.click(send);
    await waitFor(() => expect(api.callsTo(ANSWER)).toHaveLength(1));
    expect(api.bodySentTo(ANSWER)).toEqual({ answer: "Enviamos hoje." });
    expect(await screen.findByText(ANSWER_SENT)).toBeInTheDocument();
  });

  it("filters open messages and lets a viewer only read", async () => {
    stubSupport({ [LIST]: page([buildMessage()]), [OPEN]: page([]) }, VIEWER);
    await renderOps(PAGE);
    expect(await screen.findByRole("heading", { level: 2, name: "Meu cartão" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Enviar resposta" })).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText("Situação"), { target: { value: "open" } });
    expect(await screen.findByText("Nenhuma mensagem com este filtro nesta estação.")).toBeInTheDocument();
  });
});
