import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import {
  ACTIVE_JOB_REFRESH_INTERVAL_MS,
  FINAL_JOB_REFRESH_INTERVAL_MS,
  jobRefreshInterval,
} from "@/features/staff/api/jobs";
import {
  buildAuditEntry,
  buildOpsJob,
  buildOpsJobDetail,
  FAILED_JOB_ID,
  renderOps,
  stubOps,
  VIEWER,
} from "@/features/staff/testing/ops-fixtures";
import { ApiError } from "@/lib/api-client";
import { formatDateTime } from "@/lib/dates";
import { jsonResponse } from "@/testing/fixtures";
import type { ApiHandler } from "@/testing/stub-api";
import type { OpsMe } from "@/types/api";

const DETAIL = `GET /api/ops/jobs/${FAILED_JOB_ID}`;
const RERUN = `POST /api/ops/jobs/${FAILED_JOB_ID}/rerun`;
const CANCEL = `POST /api/ops/jobs/${FAILED_JOB_ID}/cancel`;
const PATH = `/ops/tarefas/${FAILED_JOB_ID}`;

function stubDetail(handlers: Record<string, ApiHandler> = {}, me: Partial<OpsMe> = {}) {
  return stubOps({ [DETAIL]: () => jsonResponse(buildOpsJobDetail()), ...handlers }, me);
}

async function renderDetail() {
  const rendered = await renderOps(PATH);
  await screen.findByRole("region", { name: "Dados da tarefa" });
  return rendered;
}

function fact(term: string) {
  return screen.getByText(term, { selector: "dt" }).nextElementSibling?.textContent;
}

const section = (name: string) => screen.getByRole("region", { name });

describe("job detail", () => {
  it("shows the job's state, owner, subject, times and current error", async () => {
    stubDetail();
    await renderDetail();

    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent(`Tarefa ${FAILED_JOB_ID}`);
    expect(screen.getByText("Aguardando nova tentativa")).toBeInTheDocument();
    expect(screen.getByRole("note")).toHaveTextContent("O servidor de e-mail não respondeu; vamos tentar de novo.");
    expect(fact("Fila")).toBe("mail.send");
    expect(fact("Tentativas")).toBe("1 de 8");
    expect(fact("Iniciada em")).toBe(formatDateTime("2026-11-21T12:00:01Z"));
    expect(fact("Criada em")).toBe(formatDateTime("2026-11-21T12:00:00Z"));
    expect(fact("Terminada em")).toBe("—");
    expect(fact("Registro")).toBe("user 7");
    expect(fact("Estação")).toBe("Clube Filia Demo");
    expect(fact("Membro")).toBe("Membro Demo (membro@demo.filia.com.br)");
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
  });

  it("pretty-prints the payload and the result", async () => {
    stubDetail({
      [DETAIL]: () =>
        jsonResponse(
          buildOpsJobDetail({ state: "succeeded", error: null, result: { to: ["membro@demo.filia.com.br"] } }),
        ),
    });
    await renderDetail();

    expect(section("Dados da tarefa").querySelector("pre")?.textContent).toBe(
      JSON.stringify(buildOpsJobDetail().payload, null, 2),
    );
    expect(section("Resultado").querySelector("pre")?.textContent).toBe(
      JSON.stringify({ to: ["membro@demo.filia.com.br"] }, null, 2),
    );
  });

  it("says when there is no result yet", async () => {
    stubDetail();
    await renderDetail();

    expect(within(section("Resultado")).getByText("Sem resultado ainda.")).toBeInTheDocument();
  });

  it("lists each failed attempt with its summary, detail, worker and time", async () => {
    stubDetail();
    await renderDetail();

    const attempt = within(section("Falhas")).getByRole("listitem");
    expect(attempt).toHaveTextContent(`Tentativa 1 · ${formatDateTime("2026-11-21T12:00:05Z")} · mail.send@host:1#0`);
    expect(within(attempt).getByText("O servidor de e-mail não respondeu; vamos tentar de novo.")).toBeInTheDocument();
    expect(within(attempt).getByText("Detalhe técnico")).toBeInTheDocument();
    expect(within(attempt).getByText("Connection refused (os error 111)")).toBeInTheDocument();
  });

  it("keeps the failures from before a re-run, whose attempt numbers start again", async () => {
    const failure = buildOpsJobDetail().failures[0];
    if (!failure) throw new Error("the fixture has a failure");
    stubDetail({
      [DETAIL]: () =>
        jsonResponse(
          buildOpsJobDetail({
            failures: [failure, { ...failure, failed_at: "2026-11-21T13:00:05Z", detail: "Connection reset" }],
          }),
        ),
    });
    await renderDetail();

    const attempts = within(section("Falhas")).getAllByRole("listitem");
    expect(attempts.map((item) => item.querySelector("p")?.textContent)).toEqual([
      `Tentativa 1 · ${formatDateTime("2026-11-21T12:00:05Z")} · mail.send@host:1#0`,
      `Tentativa 1 · ${formatDateTime("2026-11-21T13:00:05Z")} · mail.send@host:1#0`,
    ]);
  });

  it("says when no attempt failed and no staff action touched the job", async () => {
    stubDetail({ [DETAIL]: () => jsonResponse(buildOpsJobDetail({ state: "queued", failures: [], error: null })) });
    await renderDetail();

    expect(within(section("Falhas")).getByText("Nenhuma falha registrada.")).toBeInTheDocument();
    expect(within(section("Ações da equipe")).getByText("Nenhuma ação da equipe nesta tarefa.")).toBeInTheDocument();
  });

  it("lists the audit entries of the job", async () => {
    stubDetail({
      [DETAIL]: () =>
        jsonResponse(
          buildOpsJobDetail({
            audit: [
              buildAuditEntry({ id: 6, action: "job.cancel", created_at: "2026-11-21T16:00:00Z" }),
              buildAuditEntry({ id: 5 }),
            ],
          }),
        ),
    });
    await renderDetail();

    expect(
      within(section("Ações da equipe"))
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      `${formatDateTime("2026-11-21T16:00:00Z")} · Equipe Demo · Cancelou a tarefa`,
      `${formatDateTime("2026-11-21T15:00:00Z")} · Equipe Demo · Reexecutou a tarefa`,
    ]);
  });

  it("shows the progress of a running job", async () => {
    stubDetail({ [DETAIL]: () => jsonResponse(buildOpsJobDetail({ state: "running", progress: 40, error: null })) });
    await renderDetail();

    const bar = screen.getByRole("progressbar", { name: "Progresso: 40%" });
    expect(bar).toHaveAttribute("aria-valuenow", "40");
  });

  it("shows an indeterminate bar while a running job has not said how far it is", async () => {
    stubDetail({ [DETAIL]: () => jsonResponse(buildOpsJobDetail({ state: "running", progress: null, error: null })) });
    await renderDetail();

    expect(screen.getByRole("progressbar", { name: "Progresso" })).not.toHaveAttribute("aria-valuenow");
  });

  it("says when the job does not exist or is out of scope", async () => {
    stubDetail({ [DETAIL]: () => jsonResponse({ error: "Tarefa não encontrada" }, 404) });
    await renderOps(PATH);

    expect(await screen.findByText("Tarefa não encontrada.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voltar para as tarefas" })).toHaveAttribute("href", "/ops/tarefas");
  });

  it("shows a loading state, then an error with a retry", async () => {
    let calls = 0;
    stubDetail({
      [DETAIL]: () => {
        calls += 1;
        return calls === 1
          ? jsonResponse({ error: "Acesso restrito à equipe de suporte." }, 403)
          : jsonResponse(buildOpsJobDetail());
      },
    });
    await renderOps(PATH);

    expect(screen.getByRole("status", { name: "Carregando tarefa" })).toBeInTheDocument();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Não foi possível carregar a tarefa.");
    fireEvent.click(within(alert).getByRole("button", { name: "Tentar novamente" }));
    expect(await screen.findByRole("region", { name: "Dados da tarefa" })).toBeInTheDocument();
  });
});

describe("job actions", () => {
  it("re-runs the job and shows its new state", async () => {
    let state: "retrying" | "succeeded" = "retrying";
    const api = stubDetail({
      [DETAIL]: () => jsonResponse(buildOpsJobDetail({ state, error: state === "retrying" ? "Falhou" : null })),
      [RERUN]: () => {
        state = "succeeded";
        return jsonResponse(buildOpsJob({ state: "queued" }));
      },
    });
    await renderDetail();

    fireEvent.click(screen.getByRole("button", { name: "Reexecutar" }));

    expect(await screen.findByText("Tarefa reexecutada.")).toBeInTheDocument();
    expect(await screen.findByText("Concluída")).toBeInTheDocument();
    expect(api.callsTo(RERUN)).toHaveLength(1);
    expect(screen.queryByRole("button", { name: "Reexecutar" })).not.toBeInTheDocument();
  });

  it("cancels the job after the confirmation", async () => {
    const api = stubDetail({
      [DETAIL]: () => jsonResponse(buildOpsJobDetail({ state: "scheduled", error: null })),
      [CANCEL]: () => jsonResponse(buildOpsJob({ state: "cancelled" })),
    });
    await renderDetail();

    expect(screen.queryByRole("button", { name: "Reexecutar" })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Cancelar" }));
    const dialog = screen.getByRole("dialog", { name: "Cancelar esta tarefa?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancelar tarefa" }));

    expect(await screen.findByText("Tarefa cancelada.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(api.callsTo(CANCEL)).toHaveLength(1);
  });

  it("offers both actions on a job waiting for its retry", async () => {
    stubDetail();
    await renderDetail();

    expect(screen.getByRole("button", { name: "Reexecutar" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Cancelar" })).toBeInTheDocument();
  });

  it("offers nothing on a running or finished job", async () => {
    stubDetail({ [DETAIL]: () => jsonResponse(buildOpsJobDetail({ state: "running", error: null })) });
    await renderDetail();

    expect(screen.queryByRole("button", { name: "Reexecutar" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancelar" })).not.toBeInTheDocument();
  });

  it("shows the actions the server allows, whatever the state", async () => {
    stubDetail({
      [DETAIL]: () => jsonResponse(buildOpsJobDetail({ state: "retrying", can_rerun: false, can_cancel: true })),
    });
    await renderDetail();

    expect(screen.queryByRole("button", { name: "Reexecutar" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Cancelar" })).toBeInTheDocument();
  });

  it("offers nothing when the server allows no action, even on a failed job", async () => {
    stubDetail({
      [DETAIL]: () => jsonResponse(buildOpsJobDetail({ state: "failed", can_rerun: false, can_cancel: false })),
    });
    await renderDetail();

    expect(screen.queryByRole("button", { name: "Reexecutar" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancelar" })).not.toBeInTheDocument();
  });

  it("gives a viewer no actions, even where the server allows them", async () => {
    stubDetail({}, VIEWER);
    await renderDetail();

    expect(screen.queryByRole("button", { name: "Reexecutar" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancelar" })).not.toBeInTheDocument();
  });

  it("shows the server's 409 as a toast", async () => {
    stubDetail({ [RERUN]: () => jsonResponse({ error: "Esta tarefa não pode ser reexecutada agora." }, 409) });
    await renderDetail();

    fireEvent.click(screen.getByRole("button", { name: "Reexecutar" }));

    const notifications = within(screen.getByRole("region", { name: "Notificações" }));
    expect(await notifications.findByText("Esta tarefa não pode ser reexecutada agora.")).toBeInTheDocument();
  });
});

describe("job detail refresh", () => {
  it("watches a job that may still change closely, a final one now and then, a missing one never", () => {
    expect(jobRefreshInterval({ data: buildOpsJobDetail({ state: "running" }), error: null })).toBe(
      ACTIVE_JOB_REFRESH_INTERVAL_MS,
    );
    expect(jobRefreshInterval({ data: buildOpsJobDetail({ state: "retrying" }), error: null })).toBe(
      ACTIVE_JOB_REFRESH_INTERVAL_MS,
    );
    expect(jobRefreshInterval({ data: buildOpsJobDetail({ state: "succeeded" }), error: null })).toBe(
      FINAL_JOB_REFRESH_INTERVAL_MS,
    );
    expect(jobRefreshInterval({ error: new ApiError(404, "Tarefa não encontrada") })).toBe(false);
  });
});
