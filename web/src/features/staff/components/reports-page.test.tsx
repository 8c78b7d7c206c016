import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ReportedItem } from "@/features/feed";
import { buildReportedItem, buildVideo, MARIA } from "@/features/feed/testing/feed-fixtures";
import { buildOpsStation, OPS_STATIONS, renderOps, stubOps, VIEWER } from "@/features/staff/testing/ops-fixtures";
import { formatDateTime } from "@/lib/dates";
import { jsonResponse } from "@/testing/fixtures";
import type { ApiHandler } from "@/testing/stub-api";

const OPEN = "GET /api/ops/reports?state=open&page=1";
const REVIEW_POST = "POST /api/ops/reports/post/41/review";

const list = (items: ReportedItem[], total = items.length) => jsonResponse({ items, total });

function stubReports(handlers: Record<string, ApiHandler>, me = {}) {
  return stubOps({ [OPS_STATIONS]: () => jsonResponse([buildOpsStation()]), ...handlers }, me);
}

const table = () => screen.getByRole("table", { name: "Denúncias" });
const rowOf = (text: string) => {
  const row = within(table()).getByText(text).closest("tr");
  if (!row) throw new Error(`no row holds ${text}`);
  return row;
};
const notifications = () => screen.getByRole("region", { name: "Notificações" });

describe("reports", () => {
  it("lists each reported item: what it shows, its author, the reports and reasons, its state", async () => {
    stubReports({
      [OPEN]: () =>
        list([
          buildReportedItem({ image: "/api/media/feed/1/a.jpg" }),
          buildReportedItem({
            kind: "comment",
            id: 5,
            description: "Comentário ruim",
            author: MARIA,
            reports: 1,
            reasons: [],
            hidden: false,
          }),
          buildReportedItem({ id: 43, description: "", video: buildVideo(), reports: 2, reasons: ["Violento"] }),
        ]),
    });
    await renderOps("/ops/denuncias");

    expect(await screen.findByRole("heading", { name: "Denúncias" })).toBeInTheDocument();
    const post = rowOf("Texto denunciado");
    expect(post).toHaveTextContent("Post 41");
    expect(post).toHaveTextContent("João Souza");
    expect(within(post).getByText("3 denúncias")).toBeInTheDocument();
    expect(within(post).getByText(`desde ${formatDateTime("2026-12-01T14:00:00Z")}`)).toBeInTheDocument();
    expect(within(within(post).getByRole("list", { name: "Motivos" })).getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "Ofensivo",
      "Spam",
    ]);
    expect(within(post).getByRole("img", { name: "Imagem denunciada: O post 41" })).toHaveAttribute("src", "/api/media/feed/1/a.jpg");
    expect(within(post).getByText("Oculto")).toBeInTheDocument();

    const comment = rowOf("Comentário ruim");
    expect(comment).toHaveTextContent("Comentário 5");
    expect(comment).toHaveTextContent("Maria Silva");
    expect(comment).toHaveTextContent("1 denúncia");
    expect(comment).toHaveTextContent("Sem motivo informado");
    expect(within(comment).getByText("Visível")).toBeInTheDocument();

    const video = within(table()).getByLabelText("Vídeo denunciado: O post 43");
    expect(video).toHaveAttribute("src", "/api/media/feed/videos/01jv.mp4");
    expect(video).toHaveAttribute("preload", "none");
  });

  it("asks support staff before hiding, then reads the list again", async () => {
    let reads = 0;
    const api = stubReports({
      [OPEN]: () => {
        reads += 1;
        return list(reads === 1 ? [buildReportedItem({ hidden: false })] : []);
      },
      [REVIEW_POST]: () => jsonResponse(buildReportedItem({ decision: "hide", reviewedAt: "2026-12-02T10:00:00Z" })),
    });
    await renderOps("/ops/denuncias");
    await screen.findByRole("table", { name: "Denúncias" });

    fireEvent.click(within(rowOf("Texto denunciado")).getByRole("button", { name: "Ocultar" }));
    const dialog = screen.getByRole("dialog", { name: "Ocultar o conteúdo?" });
    expect(dialog).toHaveTextContent("O post 41 fica oculto para todos os membros, inclusive o autor.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Voltar" }));
    expect(api.callsTo(REVIEW_POST)).toHaveLength(0);

    fireEvent.click(within(rowOf("Texto denunciado")).getByRole("button", { name: "Ocultar" }));
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Ocultar" }));

    expect(await screen.findByText("Conteúdo ocultado.")).toBeInTheDocument();
    expect(api.bodiesOf(REVIEW_POST)).toEqual([{ decision: "hide" }]);
    expect(await screen.findByText("Nenhuma denúncia aberta.")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it.each([
    ["Manter", "keep", "Manter o conteúdo?", "O comentário 5 volta a aparecer para os membros", "Conteúdo mantido."],
    ["Remover", "remove", "Remover o conteúdo?", "O comentário 5 sai de vez do que os membros veem.", "Conteúdo removido."],
  ])("lets support staff %s a comment", async (button, decision, title, body, done) => {
    const call = "POST /api/ops/reports/comment/5/review";
    const api = stubReports({
      [OPEN]: () => list([buildReportedItem({ kind: "comment", id: 5 })]),
      [call]: () => jsonResponse(buildReportedItem({ kind: "comment", id: 5 })),
    });
    await renderOps("/ops/denuncias");
    await screen.findByRole("table", { name: "Denúncias" });

    fireEvent.click(within(rowOf("Texto denunciado")).getByRole("button", { name: button }));
    const dialog = screen.getByRole("dialog", { name: title });
    expect(dialog).toHaveTextContent(body);
    fireEvent.click(within(dialog).getByRole("button", { name: button }));

    expect(await screen.findByText(done)).toBeInTheDocument();
    expect(api.bodiesOf(call)).toEqual([{ decision }]);
  });

  it("shows why a review was refused", async () => {
    stubReports({
      [OPEN]: () => list([buildReportedItem()]),
      [REVIEW_POST]: () => jsonResponse({ messages: ["Seu perfil permite apenas consultar."] }, 403),
    });
    await renderOps("/ops/denuncias");
    await screen.findByRole("table", { name: "Denúncias" });

    fireEvent.click(within(rowOf("Texto denunciado")).getByRole("button", { name: "Remover" }));
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Remover" }));

    expect(await within(notifications()).findByText("Seu perfil permite apenas consultar.")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("offers nothing to decide on a removed item", async () => {
    stubReports({ [OPEN]: () => list([buildReportedItem({ removed: true })]) });
    await renderOps("/ops/denuncias");
    await screen.findByRole("table", { name: "Denúncias" });

    expect(within(rowOf("Texto denunciado")).getByText("Removido")).toBeInTheDocument();
    expect(within(table()).queryByRole("button")).not.toBeInTheDocument();
  });

  it("lets viewers read but not decide", async () => {
    stubReports({ [OPEN]: () => list([buildReportedItem()]) }, VIEWER);
    await renderOps("/ops/denuncias");
    await screen.findByRole("table", { name: "Denúncias" });

    expect(within(table()).queryByRole("button")).not.toBeInTheDocument();
    expect(within(table()).queryByRole("columnheader", { name: "Ação" })).not.toBeInTheDocument();
  });

  it("shows the reviewed items and when each was decided, the state in the address", async () => {
    const reviewed = "GET /api/ops/reports?state=reviewed&page=1";
    stubReports({
      [OPEN]: () => list([]),
      [reviewed]: () =>
        list([buildReportedItem({ hidden: false, decision: "keep", reviewedAt: "2026-12-02T10:00:00Z" })]),
    });
    const { page } = await renderOps("/ops/denuncias");
    expect(await screen.findByText("Nenhuma denúncia aberta.")).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText("Situação"), { target: { value: "reviewed" } });

    expect(await screen.findByText(`Mantido em ${formatDateTime("2026-12-02T10:00:00Z")}`)).toBeInTheDocument();
    expect(page.location.search).toBe("?state=reviewed");
  });

  it("filters by station for staff of every station, and pages", async () => {
    const ofStation = "GET /api/ops/reports?state=open&station_id=1&page=1";
    const second = "GET /api/ops/reports?state=open&station_id=1&page=2";
    const api = stubReports({
      [OPEN]: () => list([buildReportedItem()]),
      [ofStation]: () => list([buildReportedItem({ description: "Da estação 1" })], 75),
      [second]: () => list([buildReportedItem({ id: 7, description: "Mais antigo" })], 75),
    });
    const { page } = await renderOps("/ops/denuncias");
    await screen.findByText("Texto denunciado");

    fireEvent.change(await screen.findByRole("combobox", { name: "Estação" }), { target: { value: "1" } });
    expect(await screen.findByText("Da estação 1")).toBeInTheDocument();
    expect(screen.getByText("Página 1 de 2")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Próxima" }));

    expect(await screen.findByText("Mais antigo")).toBeInTheDocument();
    expect(page.location.search).toBe("?station_id=1&page=2");
    expect(api.callsTo(second)).toHaveLength(1);
  });

  it("has no station filter for a one-station grant", async () => {
    const api = stubReports({ [OPEN]: () => list([]) }, { station: { id: 1, name: "Clube Filia Demo" } });
    await renderOps("/ops/denuncias");
    await screen.findByText("Nenhuma denúncia aberta.");

    expect(screen.queryByRole("combobox", { name: "Estação" })).not.toBeInTheDocument();
    expect(api.callsTo(OPS_STATIONS)).toHaveLength(0);
  });

  it("shows a loading state, then an error with a retry", async () => {
    let calls = 0;
    stubReports({
      [OPEN]: () => {
        calls += 1;
        return calls === 1 ? jsonResponse({ messages: ["Página inválida."] }, 422) : list([buildReportedItem()]);
      },
    });
    await renderOps("/ops/denuncias");

    expect(screen.getByRole("status", { name: "Carregando denúncias" })).toBeInTheDocument();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Não foi possível carregar as denúncias.Página inválida.");
    fireEvent.click(within(alert).getByRole("button", { name: "Tentar novamente" }));

    await waitFor(() => expect(screen.getByRole("table", { name: "Denúncias" })).toBeInTheDocument());
  });
});
