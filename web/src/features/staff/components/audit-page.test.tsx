import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import {
  buildAuditEntry,
  FAILED_JOB_ID,
  renderOps,
  RETRYING_JOB_ID,
  stubOps,
  VIEWER,
} from "@/features/staff/testing/ops-fixtures";
import { formatDateTime } from "@/lib/dates";
import { jsonResponse } from "@/testing/fixtures";
import type { OpsAuditEntry } from "@/types/api";

const AUDIT = "GET /api/ops/audit?page=1";
const auditPage = (entries: OpsAuditEntry[], total = entries.length, page = 1) =>
  jsonResponse({ entries, total, page, per_page: 50 });

const table = () => screen.getByRole("table", { name: "Auditoria" });

function rows() {
  return within(table())
    .getAllByRole("row")
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    );
}

describe("audit log", () => {
  it("lists each staff action: when, who, what, on which jobs and the details", async () => {
    const manyJobs = ["01JA", "01JB", "01JC", "01JD", "01JE"];
    stubOps({
      [AUDIT]: () =>
        auditPage([
          buildAuditEntry({ id: 9, action: "queue.pause", job_ids: [], details: { queue: "mail.send" } }),
          buildAuditEntry({ id: 8, action: "queue.resume", job_ids: [], details: { queue: "mail.send" } }),
          buildAuditEntry({
            id: 7,
            action: "jobs.rerun",
            job_ids: manyJobs,
            details: { filter: { queue: "mail.send", state: "failed", q: "demo", station_id: 1 }, count: 5 },
          }),
          buildAuditEntry({
            id: 6,
            action: "job.cancel",
            job_ids: [RETRYING_JOB_ID],
            details: { queue: "mail.send", state_before: "retrying" },
          }),
          buildAuditEntry({
            id: 5,
            action: "cashback.release",
            station_id: 1,
            job_ids: ["01JR"],
            details: { station_id: 1, job: "01JR" },
          }),
          buildAuditEntry({ id: 4, action: "jobs.rerun", job_ids: [], details: { filter: {}, count: 0 } }),
          buildAuditEntry({ id: 3 }),
        ]),
    });
    await renderOps("/ops/auditoria");

    const when = formatDateTime("2026-11-21T15:00:00Z");
    const who = "Equipe Demo (equipe@demo.filia.com.br)";
    expect(await screen.findByRole("table", { name: "Auditoria" })).toBeInTheDocument();
    expect(rows()).toEqual([
      [when, who, "Pausou a fila", "—", "Fila mail.send"],
      [when, who, "Retomou a fila", "—", "Fila mail.send"],
      [
        when,
        who,
        "Reexecutou tarefas em lote",
        "01JA01JB01JCe mais 2",
        '5 tarefas (fila mail.send, estado Falhou, texto "demo", estação 1)',
      ],
      [when, who, "Cancelou a tarefa", RETRYING_JOB_ID, "Fila mail.send, antes: Aguardando nova tentativa"],
      [when, who, "Liberou cashback", "01JR", "Estação 1"],
      [when, who, "Reexecutou tarefas em lote", "—", "0 tarefas (sem filtro)"],
      [when, who, "Reexecutou a tarefa", FAILED_JOB_ID, "—"],
    ]);
    expect(within(table()).getByRole("link", { name: FAILED_JOB_ID })).toHaveAttribute(
      "href",
      `/ops/tarefas/${FAILED_JOB_ID}`,
    );
  });

  it("names the moderation's decisions on reported content", async () => {
    stubOps({
      [AUDIT]: () =>
        auditPage([
          buildAuditEntry({ id: 3, action: "content.remove" as OpsAuditEntry["action"], job_ids: [] }),
          buildAuditEntry({ id: 2, action: "content.hide" as OpsAuditEntry["action"], job_ids: [] }),
          buildAuditEntry({ id: 1, action: "content.keep" as OpsAuditEntry["action"], job_ids: [] }),
        ]),
    });
    await renderOps("/ops/auditoria");

    await screen.findByRole("table", { name: "Auditoria" });
    expect(rows().map((row) => row[2])).toEqual([
      "Removeu o conteúdo",
      "Ocultou o conteúdo",
      "Manteve o conteúdo denunciado",
    ]);
  });

  it("names the subscription actions, with the subscription and its member", async () => {
    stubOps({
      [AUDIT]: () =>
        auditPage([
          buildAuditEntry({
            id: 2,
            action: "subscription.cancel",
            station_id: 1,
            job_ids: [],
            details: { subscription_id: 11, user_id: 7 },
          }),
          buildAuditEntry({ id: 1, action: "subscription.retry", job_ids: [], details: { subscription_id: 11, user_id: 7 } }),
        ]),
    });
    await renderOps("/ops/auditoria");

    await screen.findByRole("table", { name: "Auditoria" });
    expect(rows().map((row) => [row[2], row[4]])).toEqual([
      ["Cancelou a assinatura", "Assinatura 11, membro 7"],
      ["Cobrou a assinatura de novo", "Assinatura 11, membro 7"],
    ]);
  });

  it("names the top-up decisions, with what a refund took back and left owed", async () => {
    stubOps({
      [AUDIT]: () =>
        auditPage([
          buildAuditEntry({
            id: 3,
            action: "topup.refund",
            job_ids: [],
            details: { topup_id: 52, user_id: 7, method: "card", amount_cents: 5000, taken_cents: 3000, owed_cents: 2000 },
          }),
          buildAuditEntry({ id: 2, action: "topup.reject", job_ids: [], details: { topup_id: 51, user_id: 7, amount_cents: 15050 } }),
          buildAuditEntry({ id: 1, action: "topup.confirm", job_ids: [], details: { topup_id: 50, user_id: 7, amount_cents: 1000 } }),
        ]),
    });
    await renderOps("/ops/auditoria");

    await screen.findByRole("table", { name: "Auditoria" });
    expect(rows().map((row) => [row[2], row[4]])).toEqual([
      ["Estornou a recarga", "Recarga 52, membro 7, R$ 50,00, retirado do saldo R$ 30,00, débito R$ 20,00"],
      ["Recusou a recarga", "Recarga 51, membro 7, R$ 150,50"],
      ["Confirmou a recarga", "Recarga 50, membro 7, R$ 10,00"],
    ]);
  });

  it("tells a support message's answer", async () => {
    stubOps({
      [AUDIT]: () =>
        auditPage([
          buildAuditEntry({ id: 2, action: "support.answer", job_ids: [], details: { support_message_id: 31, user_id: null } }),
          buildAuditEntry({ id: 1, action: "support.answer", job_ids: [], details: { support_message_id: 30, user_id: 7 } }),
        ]),
    });
    await renderOps("/ops/auditoria");

    await screen.findByRole("table", { name: "Auditoria" });
    expect(rows().map((row) => [row[2], row[4]])).toEqual([
      ["Respondeu a mensagem de suporte", "Mensagem 31, visitante"],
      ["Respondeu a mensagem de suporte", "Mensagem 30, membro 7"],
    ]);
  });

  it("is open to viewers too", async () => {
    stubOps({ [AUDIT]: () => auditPage([buildAuditEntry()]) }, VIEWER);
    await renderOps("/ops/auditoria");

    expect(await screen.findByRole("table", { name: "Auditoria" })).toBeInTheDocument();
  });

  it("pages through the log with the page in the address", async () => {
    const api = stubOps({
      [AUDIT]: () => auditPage([buildAuditEntry({ id: 60 })], 75),
      "GET /api/ops/audit?page=2": () => auditPage([buildAuditEntry({ id: 10, action: "job.cancel" })], 75, 2),
    });
    const { page } = await renderOps("/ops/auditoria");

    expect(await screen.findByText("Página 1 de 2")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Próxima" }));

    expect(await screen.findByText("Cancelou a tarefa")).toBeInTheDocument();
    expect(page.location.search).toBe("?page=2");
    expect(screen.getByText("Página 2 de 2")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Próxima" })).toBeDisabled();
    fireEvent.click(screen.getByRole("button", { name: "Anterior" }));
    await waitFor(() => expect(page.location.search).toBe(""));
    expect(api.callsTo("GET /api/ops/audit?page=2")).toHaveLength(1);
  });

  it("says when nothing was done yet", async () => {
    stubOps({ [AUDIT]: () => auditPage([]) });
    await renderOps("/ops/auditoria");

    expect(await screen.findByText("Nenhuma ação da equipe registrada ainda.")).toBeInTheDocument();
  });

  it("shows a loading state, then an error with a retry", async () => {
    let calls = 0;
    stubOps({
      [AUDIT]: () => {
        calls += 1;
        return calls === 1 ? jsonResponse({ error: "Página inválida." }, 422) : auditPage([buildAuditEntry()]);
      },
    });
    await renderOps("/ops/auditoria");

    expect(screen.getByRole("status", { name: "Carregando auditoria" })).toBeInTheDocument();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Não foi possível carregar a auditoria.Página inválida.");
    fireEvent.click(within(alert).getByRole("button", { name: "Tentar novamente" }));

    expect(await screen.findByRole("table", { name: "Auditoria" })).toBeInTheDocument();
  });
});
