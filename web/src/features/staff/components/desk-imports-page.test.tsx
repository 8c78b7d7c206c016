import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DeskImportsPage, FILE_TOO_LARGE, IMPORT_SENT, IMPORTS_TITLE } from "@/features/staff/components/desk-imports-page";
import { buildStation, jsonResponse } from "@/testing/fixtures";
import { stubApi } from "@/testing/stub-api";
import { TestProviders } from "@/testing/test-providers";
import type { ServiceImport } from "@/types/api";

const LIST = "GET /api/ops/stations/1/desk/legal/imports";
const SEND = "POST /api/ops/stations/1/desk/legal/imports";
const ONE = "GET /api/ops/desk/imports/5";

function buildImport(overrides: Partial<ServiceImport> = {}): ServiceImport {
  return {
    id: 5,
    station_id: 1,
    desk: "legal",
    kind: "cases",
    file_name: "processos.csv",
    status: "queued",
    total_rows: 4,
    processed_rows: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    rejected: [],
    failure: null,
    job_id: "job-1",
    created_at: "2026-12-10T12:00:00Z",
    finished_at: null,
    ...overrides,
  };
}

function renderPage(desk: "legal" | "health" = "legal") {
  return render(
    <TestProviders station={buildStation()}>
      <DeskImportsPage stationId={1} desk={desk} />
    </TestProviders>,
  );
}

function csv(text: string, name = "processos.csv"): File {
  return new File([text], name, { type: "text/csv" });
}

describe("desk imports page", () => {
  it("sends a file, follows its progress and shows the rejected rows", async () => {
    const answers = [
      buildImport({ status: "running", processed_rows: 2 }),
      buildImport({
        status: "done",
        processed_rows: 4,
        inserted: 2,
        unchanged: 0,
        rejected: [{ line: 3, message: "cpf: CPF inválido" }],
        finished_at: "2026-12-10T12:01:00Z",
      }),
    ];
    const api = stubApi({
      [LIST]: () => jsonResponse([]),
      [SEND]: () => jsonResponse({ import: buildImport(), job_id: "job-1" }, 202),
      [ONE]: () => jsonResponse(answers.length > 1 ? answers.shift() : answers[0]),
    });
    renderPage();
    expect(screen.getByRole("heading", { level: 1, name: IMPORTS_TITLE })).toBeInTheDocument();
    expect(await screen.findByText("Nenhuma importação neste atendimento.")).toBeInTheDocument();

    fireEvent.click(screen.getByRole("radio", { name: "Agendamentos" }));
    fireEvent.click(screen.getByRole("radio", { name: "Processos" }));
    fireEvent.change(screen.getByLabelText("Arquivo CSV"), { target: { files: [csv("cpf;numero_processo\n1;2\n")] } });
    fireEvent.click(screen.getByRole("button", { name: "Enviar planilha" }));
    await waitFor(() => expect(api.callsTo(SEND)).toHaveLength(1));
    expect(await screen.findByText(IMPORT_SENT)).toBeInTheDocument();

    const bar = await screen.findByRole("progressbar", { name: "Progresso da importação" });
    expect(bar).toHaveAttribute("aria-valuemin", "0");
    expect(bar).toHaveAttribute("aria-valuemax", "100");
    // Polled while queued or running, until done.
    await waitFor(() => expect(bar).toHaveAttribute("aria-valuenow", "50"), { timeout: 4000 });
    await waitFor(() => expect(screen.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100"), {
      timeout: 4000,
    });
    expect(screen.getByText("Situação: Concluída")).toBeInTheDocument();
    const rejected = screen.getByRole("table", { name: "Linhas recusadas" });
    expect(within(rejected).getByRole("cell", { name: "cpf: CPF inválido" })).toBeInTheDocument();
    expect(within(rejected).getByRole("cell", { name: "3" })).toBeInTheDocument();
  }, 15000);

  it("shows the API's message and checks the size before sending", async () => {
    const api = stubApi({
      [LIST]: () => jsonResponse([]),
      [SEND]: () => jsonResponse({ messages: ["file: O arquivo deve ser um CSV de texto em UTF-8."] }, 422),
    });
    renderPage();
    fireEvent.click(screen.getByRole("button", { name: "Enviar planilha" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Escolha o arquivo CSV.");

    const large = csv("a");
    Object.defineProperty(large, "size", { value: 2 * 1024 * 1024 + 1 });
    fireEvent.change(screen.getByLabelText("Arquivo CSV"), { target: { files: [large] } });
    fireEvent.click(screen.getByRole("button", { name: "Enviar planilha" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(FILE_TOO_LARGE);
    expect(api.callsTo(SEND)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText("Arquivo CSV"), { target: { files: [csv("\u0000")] } });
    fireEvent.click(screen.getByRole("button", { name: "Enviar planilha" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("O arquivo deve ser um CSV de texto em UTF-8.");
    expect(screen.getByLabelText("Arquivo CSV")).toHaveAttribute("aria-invalid", "true");
  });

  it("lists past imports and opens one; health imports appointments only", async () => {
    stubApi({
      "GET /api/ops/stations/1/desk/health/imports": () =>
        jsonResponse([
          buildImport({ desk: "health", kind: "appointments", status: "done", inserted: 3, unchanged: 1 }),
        ]),
      [ONE]: () => jsonResponse(buildImport({ desk: "health", kind: "appointments", status: "done", inserted: 3 })),
    });
    renderPage("health");
    expect(screen.queryByRole("radio", { name: "Processos" })).not.toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Agendamentos" })).toBeChecked();
    const open = await screen.findByRole("button", { name: /Ver a importação de processos.csv/ });
    expect(screen.getByText(/3 incluídas, 0 atualizadas, 1 sem alteração, 0 recusadas/)).toBeInTheDocument();
    fireEvent.click(open);
    expect(await screen.findByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
    expect(open).toHaveAttribute("aria-pressed", "true");
  });
});
