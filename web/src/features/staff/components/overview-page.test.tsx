import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import {
  buildOpsQueue,
  buildOpsStation,
  OPS_QUEUES,
  OPS_STATIONS,
  renderOps,
  stubOps,
  VIEWER,
} from "@/features/staff/testing/ops-fixtures";
import { formatDateTime } from "@/lib/dates";
import { jsonResponse } from "@/testing/fixtures";
import type { ApiHandler } from "@/testing/stub-api";
import type { OpsMe } from "@/types/api";

const RELEASE_JOB_ID = "01JD3XKQ7M2V9S8T4R6P5N3B9Z";
const RELEASE = "POST /api/ops/stations/1/release";

function stubOverview(handlers: Record<string, ApiHandler> = {}, me: Partial<OpsMe> = {}) {
  return stubOps(
    {
      [OPS_QUEUES]: () =>
        jsonResponse([
          buildOpsQueue(),
          buildOpsQueue({
            name: "points.credit",
            paused: true,
            paused_at: "2026-11-21T13:00:00Z",
            paused_by: { id: 2, name: "Equipe Demo" },
            counts: { queued: 4, scheduled: 0, running: 0, retrying: 0, succeeded: 0, failed: 0, cancelled: 0 },
          }),
        ]),
      [OPS_STATIONS]: () => jsonResponse([buildOpsStation()]),
      ...handlers,
    },
    me,
  );
}

const queueCard = (name: string) => screen.getByRole("article", { name });
const findQueueCard = (name: string) => screen.findByRole("article", { name });
const queuesSection = () => screen.getByRole("region", { name: "Filas" });
const stationsSection = () => screen.getByRole("region", { name: "Liberação de cashback" });

function countsOf(card: HTMLElement) {
  return within(card)
    .getAllByRole("term")
    .map((term) => [term.textContent, term.nextElementSibling?.textContent]);
}

describe("queues", () => {
  it("shows each queue's counts per state in Portuguese, with links to the filtered list", async () => {
    stubOverview();
    await renderOps("/ops");

    const card = await within(queuesSection()).findByRole("article", { name: "mail.send" });
    expect(countsOf(card)).toEqual([
      ["Na fila", "0"],
      ["Agendada", "0"],
      ["Executando", "0"],
      ["Aguardando nova tentativa", "1"],
      ["Concluída", "10"],
      ["Falhou", "2"],
      ["Cancelada", "0"],
    ]);
    expect(within(card).getByRole("link", { name: "2" })).toHaveAttribute(
      "href",
      "/ops/tarefas?queue=mail.send&state=failed",
    );
    expect(within(card).queryByText("Pausada")).not.toBeInTheDocument();
  });

  it("marks a paused queue with who paused it and when", async () => {
    stubOverview();
    await renderOps("/ops");

    const card = await screen.findByRole("article", { name: "points.credit" });
    expect(within(card).getByText("Pausada")).toBeInTheDocument();
    const pausedAt = formatDateTime("2026-11-21T13:00:00Z");
    expect(within(card).getByText(`Pausada por Equipe Demo em ${pausedAt}`)).toBeInTheDocument();
    expect(within(card).getByRole("button", { name: "Retomar" })).toBeInTheDocument();
    expect(within(queueCard("mail.send")).getByRole("button", { name: "Pausar" })).toBeInTheDocument();
  });

  it("pauses a queue only after the confirmation", async () => {
    let paused = false;
    const api = stubOverview({
      "POST /api/ops/queues/mail.send/pause": () => {
        paused = true;
        return jsonResponse(buildOpsQueue({ paused: true }));
      },
    });
    await renderOps("/ops");

    fireEvent.click(within(await findQueueCard("mail.send")).getByRole("button", { name: "Pausar" }));
    const dialog = screen.getByRole("dialog", { name: "Pausar a fila mail.send?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Voltar" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(api.callsTo("POST /api/ops/queues/mail.send/pause")).toHaveLength(0);

    fireEvent.click(within(queueCard("mail.send")).getByRole("button", { name: "Pausar" }));
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Pausar fila" }));

    expect(await screen.findByText("Fila pausada.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(paused).toBe(true);
    // The counts are asked for again after the action.
    await waitFor(() => expect(api.callsTo(OPS_QUEUES).length).toBeGreaterThanOrEqual(2));
  });

  it("resumes a paused queue after the confirmation", async () => {
    const api = stubOverview({
      "POST /api/ops/queues/points.credit/resume": () => jsonResponse(buildOpsQueue({ name: "points.credit" })),
    });
    await renderOps("/ops");

    fireEvent.click(within(await findQueueCard("points.credit")).getByRole("button", { name: "Retomar" }));
    const dialog = screen.getByRole("dialog", { name: "Retomar a fila points.credit?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Retomar fila" }));

    expect(await screen.findByText("Fila retomada.")).toBeInTheDocument();
    expect(api.callsTo("POST /api/ops/queues/points.credit/resume")).toHaveLength(1);
  });

  it("shows the server's refusal as a toast", async () => {
    stubOverview({
      "POST /api/ops/queues/mail.send/pause": () =>
        jsonResponse({ error: "Somente a equipe de todas as estações pode pausar filas." }, 403),
    });
    await renderOps("/ops");

    fireEvent.click(within(await findQueueCard("mail.send")).getByRole("button", { name: "Pausar" }));
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Pausar fila" }));

    const notifications = screen.getByRole("region", { name: "Notificações" });
    const refusal = "Somente a equipe de todas as estações pode pausar filas.";
    expect(await within(notifications).findByText(refusal)).toBeInTheDocument();
  });

  it("gives a viewer no pause or resume", async () => {
    stubOverview({}, VIEWER);
    await renderOps("/ops");

    await screen.findByRole("article", { name: "mail.send" });
    expect(within(queuesSection()).queryByRole("button")).not.toBeInTheDocument();
  });

  it("gives a one-station grant no pause or resume: queues belong to staff of every station", async () => {
    stubOverview({}, { station: { id: 1, name: "Clube Filia Demo" } });
    await renderOps("/ops");

    await screen.findByRole("article", { name: "mail.send" });
    expect(within(queuesSection()).queryByRole("button")).not.toBeInTheDocument();
    const release = await within(stationsSection()).findByRole("button", { name: "Liberar agora: Clube Filia Demo" });
    expect(release).toBeInTheDocument();
  });

  it("says when there is no queue yet", async () => {
    stubOverview({ [OPS_QUEUES]: () => jsonResponse([]) });
    await renderOps("/ops");

    expect(await within(queuesSection()).findByText("Nenhuma fila registrada ainda.")).toBeInTheDocument();
  });

  it("shows a loading state, then an error with a retry", async () => {
    let calls = 0;
    stubOverview({
      [OPS_QUEUES]: () => {
        calls += 1;
        return calls === 1
          ? jsonResponse({ error: "Acesso restrito à equipe de suporte." }, 403)
          : jsonResponse([buildOpsQueue()]);
      },
    });
    await renderOps("/ops");

    expect(within(queuesSection()).getByRole("status", { name: "Carregando filas" })).toBeInTheDocument();
    const alert = await within(queuesSection()).findByRole("alert");
    expect(alert).toHaveTextContent("Não foi possível carregar as filas.");
    expect(alert).toHaveTextContent("Acesso restrito à equipe de suporte.");
    fireEvent.click(within(alert).getByRole("button", { name: "Tentar novamente" }));

    expect(await within(queuesSection()).findByRole("article", { name: "mail.send" })).toBeInTheDocument();
  });
});

describe("cashback release", () => {
  it("shows each station's schedule and the cashback waiting, due or not", async () => {
    stubOverview({
      [OPS_STATIONS]: () =>
        jsonResponse([
          buildOpsStation(),
          buildOpsStation({
            id: 2,
            name: "Clube Saúde",
            subdomain: "saude",
            release: { expression: "0 0 3 * * *", enabled: false, last_tick: "2026-11-21T06:00:00Z" },
            pending: { lots: 1, amount_cents: 123456, due_lots: 0, due_amount_cents: 0 },
          }),
        ]),
    });
    await renderOps("/ops");

    const demo = await within(stationsSection()).findByRole("row", { name: /Clube Filia Demo/ });
    expect(within(demo).getAllByRole("cell").map((cell) => cell.textContent)).toEqual([
      "0 0 * * * * · ativa",
      "Nunca",
      "3 lotes · 150,00",
      "2 lotes · 100,00",
      "Liberar agora",
    ]);
    const saude = within(stationsSection()).getByRole("row", { name: /Clube Saúde/ });
    expect(within(saude).getAllByRole("cell").map((cell) => cell.textContent)).toEqual([
      "0 0 3 * * * · desativada",
      formatDateTime("2026-11-21T06:00:00Z"),
      "1 lote · 1.234,56",
      "0 lotes · 0,00",
      "Liberar agora",
    ]);
  });

  it("releases a station now after the confirmation and links to the release job", async () => {
    const api = stubOverview({
      [RELEASE]: () => jsonResponse({ job_id: RELEASE_JOB_ID }, 202),
    });
    const { page } = await renderOps("/ops");

    fireEvent.click(await within(stationsSection()).findByRole("button", { name: "Liberar agora: Clube Filia Demo" }));
    const dialog = screen.getByRole("dialog", { name: "Liberar o cashback de Clube Filia Demo agora?" });
    expect(dialog).toHaveTextContent(
      "Os créditos já vencidos (2 lotes · 100,00 pontos) passam para o saldo dos membros",
    );
    expect(api.callsTo(RELEASE)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole("button", { name: "Liberar cashback" }));

    const link = await within(stationsSection()).findByRole("link", { name: "Acompanhar a liberação" });
    expect(within(stationsSection()).getByText(/Liberação enfileirada/)).toBeInTheDocument();
    expect(link).toHaveAttribute("href", `/ops/tarefas/${RELEASE_JOB_ID}`);
    expect(api.callsTo(RELEASE)).toHaveLength(1);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(OPS_STATIONS).length).toBeGreaterThanOrEqual(2));

    fireEvent.click(link);
    await waitFor(() => expect(page.location.pathname).toBe(`/ops/tarefas/${RELEASE_JOB_ID}`));
  });

  it("releases nothing on 'Voltar'", async () => {
    const api = stubOverview({ [RELEASE]: () => jsonResponse({ job_id: RELEASE_JOB_ID }, 202) });
    await renderOps("/ops");

    fireEvent.click(await within(stationsSection()).findByRole("button", { name: "Liberar agora: Clube Filia Demo" }));
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Voltar" }));

    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(api.callsTo(RELEASE)).toHaveLength(0);
    expect(within(stationsSection()).queryByText(/Liberação enfileirada/)).not.toBeInTheDocument();
  });

  it("disables the release while the request runs, so it is queued once", async () => {
    let answer: (response: Response) => void = () => undefined;
    const api = stubOverview({ [RELEASE]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    await renderOps("/ops");

    const button = await within(stationsSection()).findByRole("button", { name: "Liberar agora: Clube Filia Demo" });
    fireEvent.click(button);
    const confirm = within(screen.getByRole("dialog")).getByRole("button", { name: "Liberar cashback" });
    fireEvent.click(confirm);

    await waitFor(() => expect(confirm).toBeDisabled());
    expect(within(screen.getByRole("dialog")).getByRole("button", { name: "Voltar" })).toBeDisabled();
    expect(button).toBeDisabled();
    fireEvent.click(confirm);
    expect(api.callsTo(RELEASE)).toHaveLength(1);

    answer(jsonResponse({ job_id: RELEASE_JOB_ID }, 202));
    expect(await within(stationsSection()).findByText(/Liberação enfileirada/)).toBeInTheDocument();
    expect(button).toBeEnabled();
  });

  it("gives a viewer no release button", async () => {
    stubOverview({}, VIEWER);
    await renderOps("/ops");

    await within(stationsSection()).findByRole("row", { name: /Clube Filia Demo/ });
    expect(within(stationsSection()).queryByRole("button")).not.toBeInTheDocument();
    expect(within(stationsSection()).queryByRole("columnheader", { name: "Ação" })).not.toBeInTheDocument();
  });

  it("says when no station is in scope", async () => {
    stubOverview({ [OPS_STATIONS]: () => jsonResponse([]) });
    await renderOps("/ops");

    expect(await within(stationsSection()).findByText("Nenhuma estação no seu escopo.")).toBeInTheDocument();
  });
});
