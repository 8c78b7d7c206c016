import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { participationOf } from "@/features/staff/api/participations";
import { buildOpsJobDetail, FAILED_JOB_ID, renderOps, stubOps, VIEWER } from "@/features/staff/testing/ops-fixtures";
import { jsonResponse } from "@/testing/fixtures";
import type { ApiHandler } from "@/testing/stub-api";
import type { OpsMe } from "@/types/api";

const DETAIL = `GET /api/ops/jobs/${FAILED_JOB_ID}`;
const ANNUL = "POST /api/ops/participations/42/annul";

function stubParticipationJob(handlers: Record<string, ApiHandler> = {}, me: Partial<OpsMe> = {}) {
  const job = buildOpsJobDetail({ queue: "trophies.grant", subject: { kind: "participation", id: "42" } });
  return stubOps({ [DETAIL]: () => jsonResponse(job), ...handlers }, me);
}

async function openDialog() {
  await renderOps(`/ops/tarefas/${FAILED_JOB_ID}`);
  fireEvent.click(await screen.findByRole("button", { name: "Anular participação" }));
  return screen.getByRole("dialog", { name: "Anular a participação 42?" });
}

describe("participationOf", () => {
  it("reads the participation a job is about, and nothing else", () => {
    expect(participationOf({ subject: { kind: "participation", id: "42" } })).toBe(42);
    expect(participationOf({ subject: { kind: "credit", id: "activity:42:activity" } })).toBe(42);
    expect(participationOf({ subject: { kind: "credit", id: "activity:7:signup" } })).toBeNull();
    expect(participationOf({ subject: { kind: "user", id: "7" } })).toBeNull();
    expect(participationOf({ subject: null })).toBeNull();
  });
});

describe("annulling a participation from its job's page", () => {
  it("asks for a reason, then annuls and tells what was taken back", async () => {
    const api = stubParticipationJob({
      [ANNUL]: () =>
        jsonResponse({
          participation_id: 42, user_id: 7, station_id: 1, action_id: 9, reversed_cents: 1000, debt_cents: 0,
          trophies: ["Primeiro passo"], lucky_numbers: [417],
        }),
    });
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole("button", { name: "Anular participação" }));
    expect(within(dialog).getByText("Informe o motivo da anulação.")).toBeInTheDocument();
    expect(api.callsTo(ANNUL)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText("Motivo"), { target: { value: "Participação duplicada" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Anular participação" }));
    expect(await screen.findByText("Participação anulada; 10,00 pontos estornados.")).toBeInTheDocument();
    expect(api.bodiesOf(ANNUL)).toEqual([{ reason: "Participação duplicada" }]);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("shows the server's refusal in the dialog", async () => {
    stubParticipationJob({ [ANNUL]: () => jsonResponse({ error: "Esta participação já foi anulada." }, 409) });
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText("Motivo"), { target: { value: "Fraude" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Anular participação" }));
    expect(await within(dialog).findByText("Esta participação já foi anulada.")).toBeInTheDocument();
  });

  it("is not offered to a viewer, nor on a job about something else", async () => {
    stubParticipationJob({}, VIEWER);
    await renderOps(`/ops/tarefas/${FAILED_JOB_ID}`);
    await screen.findByRole("region", { name: "Dados da tarefa" });
    expect(screen.queryByRole("button", { name: "Anular participação" })).toBeNull();
  });
});
