import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { JOB_LIST_REFRESH_INTERVAL_MS, jobListQueryOptions } from "@/features/staff/api/jobs";
import {
  buildOpsJob,
  buildOpsJobList,
  buildOpsQueue,
  buildOpsStation,
  DONE_JOB_ID,
  FAILED_JOB_ID,
  OPS_QUEUES,
  OPS_STATIONS,
  renderOps,
  RETRYING_JOB_ID,
  stubOps,
  VIEWER,
} from "@/features/staff/testing/ops-fixtures";
import { jsonResponse } from "@/testing/fixtures";
import type { ApiHandler } from "@/testing/stub-api";
import type { OpsMe } from "@/types/api";

const LIST = "GET /api/ops/jobs";
const BULK = "POST /api/ops/jobs/rerun";
const CURSOR = "01JD00000000000000000000AA";
const queues = () => jsonResponse([buildOpsQueue(), buildOpsQueue({ name: "points.credit" })]);

const stations = () =>
  jsonResponse([buildOpsStation(), buildOpsStation({ id: 2, name: "Clube Saúde", subdomain: "saude" })]);

function stubJobs(handlers: Record<string, ApiHandler> = {}, me: Partial<OpsMe> = {}) {
  return stubOps(
    {
      [OPS_QUEUES]: queues,
      [OPS_STATIONS]: stations,
      [LIST]: () => jsonResponse(buildOpsJobList()),
      ...handlers,
    },
    me,
  );
}

async function renderJobs(path = "/ops/tarefas") {
  const rendered = await renderOps(path);
  await screen.findByRole("table", { name: "Tarefas" });
  return rendered;
}

const table = () => screen.getByRole("table", { name: "Tarefas" });
const rowOf = (id: string) => within(table()).getByRole("row", { name: new RegExp(id) });
const notifications = () => within(screen.getByRole("region", { name: "Notificações" }));

function cellsOf(row: HTMLElement) {
  return within(row)
    .getAllByRole("cell")
    .map((cell) => cell.textContent);
}

describe("job list", () => {
  it("lists the jobs with their state in Portuguese, attempts and error", async () => {
    stubJobs();
    await renderJobs();

    const failed = cellsOf(rowOf(FAILED_JOB_ID));
    expect(failed.slice(0, 4)).toEqual([FAILED_JOB_ID, "mail.send", "Falhou", "8 de 8"]);
    expect(failed[5]).toBe("O e-mail não pôde ser entregue.");
    expect(cellsOf(rowOf(RETRYING_JOB_ID))[2]).toBe("Aguardando nova tentativa");
    expect(cellsOf(rowOf(DONE_JOB_ID))[2]).toBe("Concluída");
    expect(cellsOf(rowOf(DONE_JOB_ID))[5]).toBe("—");
    expect(within(rowOf(FAILED_JOB_ID)).getByRole("link", { name: FAILED_JOB_ID })).toHaveAttribute(
      "href",
      `/ops/tarefas/${FAILED_JOB_ID}`,
    );
  });

  it.each([
    ["queued", "Na fila"],
    ["scheduled", "Agendada"],
    ["running", "Executando"],
    ["cancelled", "Cancelada"],
  ] as const)("names the state %s '%s'", async (state, label) => {
    stubJobs({ [LIST]: () => jsonResponse(buildOpsJobList({ jobs: [buildOpsJob({ state })] })) });
    await renderJobs();

    expect(cellsOf(rowOf(FAILED_JOB_ID))[2]).toBe(label);
  });

  it("offers 'Reexecutar' on the jobs the server says can be re-run", async () => {
    stubJobs({
      [LIST]: () =>
        jsonResponse(
          buildOpsJobList({
            jobs: [
              buildOpsJob(),
              buildOpsJob({ id: RETRYING_JOB_ID, state: "retrying" }),
              buildOpsJob({ id: DONE_JOB_ID, state: "running" }),
              buildOpsJob({ id: "01JD3XKQ7M2V9S8T4R6P5N3B4F", state: "cancelled" }),
              buildOpsJob({ id: "01JD3XKQ7M2V9S8T4R6P5N3B5G", state: "queued" }),
            ],
          }),
        ),
    });
    await renderJobs();

    const rerunnable = within(table())
      .getAllByRole("button", { name: "Reexecutar" })
      .map((button) => within(button.closest("tr") as HTMLElement).getAllByRole("cell")[0]?.textContent);
    expect(rerunnable).toEqual([FAILED_JOB_ID, RETRYING_JOB_ID, "01JD3XKQ7M2V9S8T4R6P5N3B4F"]);
  });

  it("follows the server's can_rerun, not the job's state", async () => {
    stubJobs({
      [LIST]: () =>
        jsonResponse(
          buildOpsJobList({
            jobs: [
              buildOpsJob({ state: "failed", can_rerun: false }),
              buildOpsJob({ id: DONE_JOB_ID, state: "succeeded", can_rerun: true }),
            ],
          }),
        ),
    });
    await renderJobs();

    expect(within(rowOf(FAILED_JOB_ID)).queryByRole("button", { name: "Reexecutar" })).not.toBeInTheDocument();
    expect(within(rowOf(DONE_JOB_ID)).getByRole("button", { name: "Reexecutar" })).toBeInTheDocument();
  });

  it("re-runs one job and refreshes the list", async () => {
    let listCalls = 0;
    const api = stubJobs({
      [LIST]: () => {
        listCalls += 1;
        const state = listCalls === 1 ? "failed" : "queued";
        return jsonResponse(buildOpsJobList({ jobs: [buildOpsJob({ state })] }));
      },
      [`POST /api/ops/jobs/${FAILED_JOB_ID}/rerun`]: () => jsonResponse(buildOpsJob({ state: "queued", attempts: 0 })),
    });
    await renderJobs();

    fireEvent.click(within(rowOf(FAILED_JOB_ID)).getByRole("button", { name: "Reexecutar" }));

    expect(await screen.findByText("Tarefa reexecutada.")).toBeInTheDocument();
    await waitFor(() => expect(cellsOf(rowOf(FAILED_JOB_ID))[2]).toBe("Na fila"));
    expect(api.callsTo(`POST /api/ops/jobs/${FAILED_JOB_ID}/rerun`)).toHaveLength(1);
  });

  it("shows the server's 409 for a job that can no longer be re-run", async () => {
    stubJobs({
      [`POST /api/ops/jobs/${FAILED_JOB_ID}/rerun`]: () =>
        jsonResponse({ error: "Esta tarefa não pode ser reexecutada agora." }, 409),
    });
    await renderJobs();

    fireEvent.click(within(rowOf(FAILED_JOB_ID)).getByRole("button", { name: "Reexecutar" }));

    expect(await notifications().findByText("Esta tarefa não pode ser reexecutada agora.")).toBeInTheDocument();
  });

  it("gives a viewer no re-run, one by one or all at once", async () => {
    stubJobs({}, VIEWER);
    await renderJobs();

    expect(within(table()).queryByRole("button")).not.toBeInTheDocument();
    expect(within(table()).queryByRole("columnheader", { name: "Ação" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Reexecutar as filtradas" })).not.toBeInTheDocument();
    expect(screen.getByRole("note")).toBeInTheDocument();
  });

  it("says when no job matches", async () => {
    stubJobs({ [LIST]: () => jsonResponse(buildOpsJobList({ jobs: [] })) });
    await renderOps("/ops/tarefas");

    expect(await screen.findByText("Nenhuma tarefa encontrada com estes filtros.")).toBeInTheDocument();
  });

  it("shows a loading state, then the server's error with a retry", async () => {
    let calls = 0;
    stubJobs({
      [LIST]: () => {
        calls += 1;
        return calls === 1 ? jsonResponse({ error: "Estado inválido." }, 422) : jsonResponse(buildOpsJobList());
      },
    });
    await renderOps("/ops/tarefas");

    expect(screen.getByRole("status", { name: "Carregando tarefas" })).toBeInTheDocument();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Não foi possível carregar as tarefas.Estado inválido.");
    fireEvent.click(within(alert).getByRole("button", { name: "Tentar novamente" }));

    expect(await screen.findByRole("table", { name: "Tarefas" })).toBeInTheDocument();
  });
});

describe("job list filters", () => {
  it("reads the filter and the page from the address and shows them", async () => {
    const key = `GET /api/ops/jobs?queue=mail.send&state=failed&q=demo&before=${CURSOR}`;
    const api = stubJobs({ [key]: () => jsonResponse(buildOpsJobList()) });
    await renderJobs(`/ops/tarefas?queue=mail.send&state=failed&q=demo&before=${CURSOR}`);

    expect(api.callsTo(key)).toHaveLength(1);
    await waitFor(() => expect(screen.getByLabelText("Fila")).toHaveValue("mail.send"));
    expect(screen.getByLabelText("Estado")).toHaveValue("failed");
    expect(screen.getByLabelText("Texto")).toHaveValue("demo");
    expect(screen.getByRole("button", { name: "Mais recentes" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Mais antigas" })).toBeDisabled();
  });

  it("puts the filter in the address and asks for it on 'Filtrar'", async () => {
    const from = "2026-11-21T08:00";
    const to = "2026-11-21T18:30";
    const search = new URLSearchParams({
      queue: "mail.send",
      state: "retrying",
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      q: "membro@demo",
    });
    const key = `GET /api/ops/jobs?${search.toString()}`;
    const api = stubJobs({ [key]: () => jsonResponse(buildOpsJobList({ jobs: [buildOpsJob()] })) });
    const { page } = await renderJobs();

    await within(screen.getByLabelText("Fila")).findByRole("option", { name: "points.credit" });
    fireEvent.change(screen.getByLabelText("Fila"), { target: { value: "mail.send" } });
    fireEvent.change(screen.getByLabelText("Estado"), { target: { value: "retrying" } });
    fireEvent.change(screen.getByLabelText("De"), { target: { value: from } });
    fireEvent.change(screen.getByLabelText("Até"), { target: { value: to } });
    fireEvent.change(screen.getByLabelText("Texto"), { target: { value: " membro@demo " } });
    fireEvent.click(screen.getByRole("button", { name: "Filtrar" }));

    await waitFor(() => expect(api.callsTo(key)).toHaveLength(1));
    expect(Object.fromEntries(new URLSearchParams(page.location.search))).toEqual({
      queue: "mail.send",
      state: "retrying",
      from,
      to,
      q: "membro@demo",
    });
    await waitFor(() => expect(within(table()).getAllByRole("row")).toHaveLength(2));
  });

  it("filters by station: from the address, and chosen in the form", async () => {
    const saude = "GET /api/ops/jobs?station_id=2";
    const demo = "GET /api/ops/jobs?queue=mail.send&station_id=1";
    const api = stubJobs({
      [saude]: () => jsonResponse(buildOpsJobList()),
      [demo]: () => jsonResponse(buildOpsJobList()),
    });
    const { page } = await renderJobs("/ops/tarefas?station_id=2");

    expect(api.callsTo(saude)).toHaveLength(1);
    const station = screen.getByLabelText("Estação");
    await within(station).findByRole("option", { name: "Clube Saúde" });
    expect(within(station).getAllByRole("option").map((option) => option.textContent)).toEqual([
      "Todas as estações",
      "Clube Filia Demo",
      "Clube Saúde",
    ]);
    expect(station).toHaveValue("2");

    fireEvent.change(screen.getByLabelText("Fila"), { target: { value: "mail.send" } });
    fireEvent.change(station, { target: { value: "1" } });
    fireEvent.click(screen.getByRole("button", { name: "Filtrar" }));

    await waitFor(() => expect(api.callsTo(demo)).toHaveLength(1));
    expect(page.location.search).toBe("?queue=mail.send&station_id=1");
  });

  it("ignores a station id in the address that is not a number", async () => {
    const api = stubJobs();
    await renderJobs("/ops/tarefas?station_id=abc");

    expect(api.callsTo(LIST)).toHaveLength(1);
    expect(screen.getByLabelText("Estação")).toHaveValue("");
  });

  it("gives a one-station grant no station filter", async () => {
    const api = stubJobs({}, { station: { id: 1, name: "Clube Filia Demo" } });
    await renderJobs();

    expect(screen.queryByLabelText("Estação")).not.toBeInTheDocument();
    expect(api.callsTo(OPS_STATIONS)).toHaveLength(0);
  });

  it("lists the states in Portuguese in the state filter", async () => {
    stubJobs();
    await renderJobs();

    expect(within(screen.getByLabelText("Estado")).getAllByRole("option").map((option) => option.textContent)).toEqual([
      "Todos os estados",
      "Na fila",
      "Agendada",
      "Executando",
      "Aguardando nova tentativa",
      "Concluída",
      "Falhou",
      "Cancelada",
    ]);
  });

  it("clears the filter with 'Limpar'", async () => {
    stubJobs({ "GET /api/ops/jobs?queue=mail.send": () => jsonResponse(buildOpsJobList()) });
    const { page } = await renderJobs("/ops/tarefas?queue=mail.send");

    fireEvent.click(screen.getByRole("button", { name: "Limpar" }));

    await waitFor(() => expect(page.location.search).toBe(""));
    await waitFor(() => expect(screen.getByLabelText("Fila")).toHaveValue(""));
  });

  it("pages to older jobs by cursor and back to the newest, keeping the filter", async () => {
    const older = `GET /api/ops/jobs?queue=mail.send&before=${CURSOR}`;
    const api = stubJobs({
      "GET /api/ops/jobs?queue=mail.send": () => jsonResponse(buildOpsJobList({ next_cursor: CURSOR })),
      [older]: () => jsonResponse(buildOpsJobList()),
    });
    const { page } = await renderJobs("/ops/tarefas?queue=mail.send");

    expect(screen.getByRole("button", { name: "Mais recentes" })).toBeDisabled();
    fireEvent.click(screen.getByRole("button", { name: "Mais antigas" }));

    await waitFor(() => expect(page.location.search).toBe(`?queue=mail.send&before=${CURSOR}`));
    await waitFor(() => expect(api.callsTo(older)).toHaveLength(1));
    expect(await screen.findByRole("button", { name: "Mais antigas" })).toBeDisabled();
    fireEvent.click(screen.getByRole("button", { name: "Mais recentes" }));
    await waitFor(() => expect(page.location.search).toBe("?queue=mail.send"));
  });

  it("offers to look further when a page's window held no match", async () => {
    stubJobs({ [LIST]: () => jsonResponse(buildOpsJobList({ jobs: [], next_cursor: CURSOR })) });
    await renderOps("/ops/tarefas");

    expect(
      await screen.findByText("Nenhuma tarefa encontrada neste trecho; busque nas mais antigas."),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Mais antigas" })).toBeEnabled();
  });

  it("shows no pager when everything fits on one page", async () => {
    stubJobs();
    await renderJobs();

    expect(screen.queryByRole("navigation", { name: "Paginação" })).not.toBeInTheDocument();
  });
});

describe("bulk re-run", () => {
  const filtered = "GET /api/ops/jobs?queue=mail.send&state=failed";
  const filteredCount = "GET /api/ops/jobs/rerunnable?queue=mail.send&state=failed";
  const filter = { queue: "mail.send", state: "failed" };

  function stubBulk(bulk: ApiHandler, rerunnable = 2) {
    return stubJobs({
      [filtered]: () => jsonResponse(buildOpsJobList()),
      [filteredCount]: () => jsonResponse({ rerunnable }),
      [BULK]: bulk,
    });
  }

  async function openBulk(path = "/ops/tarefas?queue=mail.send&state=failed") {
    await renderJobs(path);
    fireEvent.click(screen.getByRole("button", { name: "Reexecutar as filtradas" }));
    return screen.getByRole("dialog");
  }

  it("counts when opened, asks to confirm with the filter, then re-runs exactly that count", async () => {
    const api = stubBulk(() => jsonResponse({ rerun: 2, job_ids: [FAILED_JOB_ID, RETRYING_JOB_ID] }));
    await renderJobs("/ops/tarefas?queue=mail.send&state=failed");
    expect(api.callsTo(filteredCount)).toHaveLength(0);

    fireEvent.click(screen.getByRole("button", { name: "Reexecutar as filtradas" }));
    expect(within(screen.getByRole("dialog")).getByRole("status")).toHaveTextContent("Contando as tarefas reexecutáveis...");
    const dialog = await screen.findByRole("dialog", { name: "Reexecutar 2 tarefas?" });
    expect(within(dialog).getByText("Fila: mail.send")).toBeInTheDocument();
    expect(within(dialog).getByText("Estado: Falhou")).toBeInTheDocument();
    expect(api.callsTo(filteredCount)).toHaveLength(1);
    expect(api.callsTo(BULK)).toHaveLength(0);

    fireEvent.click(within(dialog).getByRole("button", { name: "Reexecutar 2 tarefas" }));

    expect(await screen.findByText("2 tarefas reexecutadas.")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(api.bodiesOf(BULK)).toEqual([{ filter, expected: 2 }]);
  });

  it("offers no bulk re-run past its bound and says to narrow the filter", async () => {
    const api = stubBulk(() => jsonResponse({ rerun: 0, job_ids: [] }), 10001);
    const dialog = await openBulk();

    expect(
      await within(dialog).findByText("Mais de 10 mil tarefas reexecutáveis: refine o filtro para reexecutá-las."),
    ).toBeInTheDocument();
    expect(within(dialog).getAllByRole("button").map((button) => button.textContent)).toEqual(["Voltar"]);
    expect(api.callsTo(BULK)).toHaveLength(0);
  });

  it("says when the filter has nothing to re-run", async () => {
    stubBulk(() => jsonResponse({ rerun: 0, job_ids: [] }), 0);
    const dialog = await openBulk();

    expect(await within(dialog).findByText("Não há tarefas a reexecutar com este filtro.")).toBeInTheDocument();
    expect(within(dialog).getAllByRole("button").map((button) => button.textContent)).toEqual(["Voltar"]);
  });

  it("says when the count could not be made, with nothing to confirm", async () => {
    stubJobs({
      [filtered]: () => jsonResponse(buildOpsJobList()),
      [filteredCount]: () => jsonResponse({ error: "Erro interno no servidor" }, 500),
    });
    const dialog = await openBulk();

    expect(await within(dialog).findByRole("alert", {}, { timeout: 5000 })).toHaveTextContent(
      "Não foi possível contar as tarefas. Tente novamente.",
    );
    expect(within(dialog).getAllByRole("button").map((button) => button.textContent)).toEqual(["Voltar"]);
  });

  it("leaves everything as it was on 'Voltar'", async () => {
    const api = stubBulk(() => jsonResponse({ rerun: 2, job_ids: [] }));
    const dialog = await openBulk();
    await within(dialog).findByRole("button", { name: "Reexecutar 2 tarefas" });

    fireEvent.click(within(dialog).getByRole("button", { name: "Voltar" }));

    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(api.callsTo(BULK)).toHaveLength(0);
  });

  it("shows the new count when the selection changed and asks again", async () => {
    let calls = 0;
    const api = stubBulk(() => {
      calls += 1;
      return calls === 1
        ? jsonResponse({ error: "A seleção mudou: agora são 3 tarefas. Confirme novamente.", count: 3 }, 409)
        : jsonResponse({ rerun: 3, job_ids: [] });
    });
    const opened = await openBulk();
    fireEvent.click(await within(opened).findByRole("button", { name: "Reexecutar 2 tarefas" }));

    const dialog = await screen.findByRole("dialog", { name: "A seleção mudou" });
    expect(within(dialog).getByRole("alert")).toHaveTextContent(
      "A seleção mudou: agora são 3 tarefas. Confirme novamente.",
    );
    // An answer to confirm again, not a failure: no error toast.
    expect(notifications().queryByText(/A seleção mudou/)).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole("button", { name: "Reexecutar 3 tarefas" }));

    expect(await screen.findByText("3 tarefas reexecutadas.")).toBeInTheDocument();
    expect(api.bodiesOf(BULK)).toEqual([
      { filter, expected: 2 },
      { filter, expected: 3 },
    ]);
  });

  it("offers nothing to confirm when the selection emptied", async () => {
    stubBulk(() => jsonResponse({ error: "A seleção mudou: agora são 0 tarefas. Confirme novamente.", count: 0 }, 409));
    const opened = await openBulk();
    fireEvent.click(await within(opened).findByRole("button", { name: "Reexecutar 2 tarefas" }));

    const dialog = await screen.findByRole("dialog", { name: "A seleção mudou" });
    expect(within(dialog).getByText("Não há mais tarefas a reexecutar com este filtro.")).toBeInTheDocument();
    expect(within(dialog).getAllByRole("button").map((button) => button.textContent)).toEqual(["Voltar"]);
  });

  it("names the filter's station in the confirmation and sends its id", async () => {
    const api = stubJobs({
      "GET /api/ops/jobs?station_id=2": () => jsonResponse(buildOpsJobList()),
      "GET /api/ops/jobs/rerunnable?station_id=2": () => jsonResponse({ rerunnable: 2 }),
      [BULK]: () => jsonResponse({ rerun: 2, job_ids: [] }),
    });
    const dialog = await openBulk("/ops/tarefas?station_id=2");

    expect(await within(dialog).findByText("Estação: Clube Saúde")).toBeInTheDocument();
    fireEvent.click(await within(dialog).findByRole("button", { name: "Reexecutar 2 tarefas" }));

    expect(await screen.findByText("2 tarefas reexecutadas.")).toBeInTheDocument();
    expect(api.bodiesOf(BULK)).toEqual([{ filter: { station_id: 2 }, expected: 2 }]);
  });

  it("says when the list has no filter", async () => {
    stubJobs({ "GET /api/ops/jobs/rerunnable": () => jsonResponse({ rerunnable: 2 }) });
    const dialog = await openBulk("/ops/tarefas");

    expect(within(dialog).getByText("Sem filtro: todas as tarefas que podem ser reexecutadas.")).toBeInTheDocument();
    expect(await within(dialog).findByRole("button", { name: "Reexecutar 2 tarefas" })).toBeInTheDocument();
  });

  it("closes the dialog and shows the toast when the re-run is refused", async () => {
    stubBulk(() => jsonResponse({ error: "Seu perfil permite apenas consultar." }, 403));
    const dialog = await openBulk();
    fireEvent.click(await within(dialog).findByRole("button", { name: "Reexecutar 2 tarefas" }));

    expect(await notifications().findByText("Seu perfil permite apenas consultar.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });
});

describe("job list refresh", () => {
  it("asks for the list every 5 s while it is open", async () => {
    expect(jobListQueryOptions({}, null).refetchInterval).toBe(JOB_LIST_REFRESH_INTERVAL_MS);
    expect(JOB_LIST_REFRESH_INTERVAL_MS).toBe(5000);

    vi.useFakeTimers({ shouldAdvanceTime: true });
    let calls = 0;
    const api = stubJobs({
      [LIST]: () => {
        calls += 1;
        const state = calls === 1 ? "running" : "succeeded";
        return jsonResponse(buildOpsJobList({ jobs: [buildOpsJob({ state, error: null })] }));
      },
    });
    await renderJobs();
    expect(cellsOf(rowOf(FAILED_JOB_ID))[2]).toBe("Executando");

    await act(() => vi.advanceTimersByTimeAsync(JOB_LIST_REFRESH_INTERVAL_MS));

    await waitFor(() => expect(cellsOf(rowOf(FAILED_JOB_ID))[2]).toBe("Concluída"));
    expect(api.callsTo(LIST)).toHaveLength(2);
  });
});
