import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { BALANCE, VOUCHERS, buildVoucher, pdfResponse, voucherPdfCall } from "@/features/commerce/testing/commerce-fixtures";
import { catchDownloads } from "@/testing/downloads";
import { DEMO_JOB_ID, DEMO_JOB_PATH, buildJob } from "@/features/jobs/testing/job-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

let downloads: ReturnType<typeof catchDownloads>;

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
  downloads = catchDownloads();
});

afterEach(() => downloads.undo());

function stubVouchers(handlers: Record<string, ApiHandler>) {
  return stubApi({ [BALANCE]: () => jsonResponse(buildWalletBalance()), ...handlers });
}

describe("vouchers page", () => {
  it("shows skeletons while loading, then a card per voucher; a used one says so", async () => {
    stubVouchers({
      [VOUCHERS]: () =>
        jsonResponse([
          buildVoucher(),
          buildVoucher({ id: 502, code: "USED00000001", validated: "1", product: "Ingresso VIP" }),
        ]),
    });
    renderApp({ path: "/homepage/vouchers" });
    const skeletons = await screen.findByRole("list", { name: "Carregando vouchers" });
    expect(skeletons).toHaveAttribute("aria-busy", "true");
    expect(within(skeletons).getAllByRole("listitem")).toHaveLength(6);

    const unused = await screen.findByRole("button", { name: /Ingresso de cinema/ });
    expect(unused).toHaveTextContent("Criado em 21/11/2026");
    expect(unused).toHaveTextContent("Válido até 31/12/2026");
    expect(unused).not.toHaveTextContent("Este voucher já foi utilizado!");
    expect(screen.getByRole("button", { name: /Ingresso VIP/ })).toHaveTextContent("Este voucher já foi utilizado!");
    expect(screen.getByRole("heading", { level: 1, name: "Meus vouchers" })).toBeInTheDocument();
  });

  it("says when there are no vouchers", async () => {
    stubVouchers({ [VOUCHERS]: () => jsonResponse([]) });
    renderApp({ path: "/homepage/vouchers" });
    expect(await screen.findByText("Você ainda não possui vouchers")).toBeInTheDocument();
  });

  it("offers to try again when the vouchers cannot be read", async () => {
    let calls = 0;
    stubVouchers({
      [VOUCHERS]: () => {
        calls += 1;
        return calls === 1 ? jsonResponse({ error: "Você não possui autorização para acessar esta página." }, 403) : jsonResponse([]);
      },
    });
    renderApp({ path: "/homepage/vouchers" });
    expect(await screen.findByText("Não foi possível carregar os seus vouchers.")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Tentar novamente" }));
    expect(await screen.findByText("Você ainda não possui vouchers")).toBeInTheDocument();
  });
});

describe("voucher dialog", () => {
  it("shows the logo, activity, member, dependents, dates, QR code of the validator link, code and cleaned rules", async () => {
    const print = vi.fn();
    vi.stubGlobal("print", print);
    stubVouchers({
      [VOUCHERS]: () =>
        jsonResponse([
          buildVoucher({
            presential_course: {
              ...buildVoucher().presential_course,
              name: "Farmácia da família",
              rules: '<p>Apresente na farmácia.</p><img src="x" onerror="alert(1)"><script>alert(2)</script>',
              action: { id: 22, name: "Farmácia da família", type_id: 17, image: null, familiarVoucher: true },
            },
            dependents: [{ dependente: "João Silva", parentesco: "Filho" }],
          }),
        ]),
    });
    renderApp({ path: "/homepage/vouchers" });
    fireEvent.click(await screen.findByRole("button", { name: /Farmácia da família/ }));

    const dialog = await screen.findByRole("dialog", { name: "Farmácia da família" });
    expect(within(dialog).getByRole("img", { name: "Clube Filia Demo" })).toHaveAttribute("src", "/brand/demo/logo.svg");
    expect(dialog).toHaveTextContent("Maria Silva");
    const [header, row] = within(within(dialog).getByRole("table")).getAllByRole("row");
    expect(header).toHaveTextContent("DependenteParentesco");
    expect(row).toHaveTextContent("João SilvaFilho");
    expect(dialog).toHaveTextContent("Criado em 21/11/2026");
    expect(dialog).toHaveTextContent("Válido até 31/12/2026");
    expect(dialog).toHaveTextContent("Código: 7K3M9Q2X4B8N");

    const qr = within(dialog).getByRole("img", { name: "QR Code do voucher 7K3M9Q2X4B8N" });
    expect(qr).toHaveAttribute("data-qr-value", "https://parceiro.example/validador/7K3M9Q2X4B8N");
    expect(qr.querySelector("path")?.getAttribute("d")).toMatch(/^M\d+ \d+h1v1h-1z/);

    const rules = within(dialog).getByText("Apresente na farmácia.").parentElement as HTMLElement;
    expect(rules.querySelector("script")).toBeNull();
    expect(rules.querySelector("img")?.hasAttribute("onerror")).toBe(false);

    expect(within(dialog).getByRole("link", { name: "Voltar para a página inicial" })).toHaveAttribute("href", "/homepage");
    fireEvent.click(within(dialog).getByRole("button", { name: "Imprimir" }));
    expect(print).toHaveBeenCalledOnce();

    fireEvent.click(within(dialog).getByRole("button", { name: "Fechar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("leaves the dependents out of a voucher that is not a family one, and says a used voucher was used", async () => {
    stubVouchers({ [VOUCHERS]: () => jsonResponse([buildVoucher({ validated: "1" })]) });
    renderApp({ path: "/homepage/vouchers" });
    fireEvent.click(await screen.findByRole("button", { name: /Ingresso de cinema/ }));
    const dialog = await screen.findByRole("dialog", { name: "Cupom do cinema" });
    expect(within(dialog).queryByRole("table")).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent("Este voucher já foi utilizado!");
  });

  it("downloads the voucher's PDF after following the job that makes it", async () => {
    let pdfCalls = 0;
    let jobCalls = 0;
    stubVouchers({
      [VOUCHERS]: () => jsonResponse([buildVoucher()]),
      [voucherPdfCall("7K3M9Q2X4B8N")]: () => {
        pdfCalls += 1;
        return pdfCalls === 1 ? jsonResponse({ job_id: DEMO_JOB_ID }, 202) : pdfResponse();
      },
      [`GET ${DEMO_JOB_PATH}`]: () => {
        jobCalls += 1;
        return jsonResponse(jobCalls === 1 ? buildJob({ progress: 70 }) : buildJob({ state: "succeeded", progress: 100 }));
      },
    });
    renderApp({ path: "/homepage/vouchers" });
    fireEvent.click(await screen.findByRole("button", { name: /Ingresso de cinema/ }));
    fireEvent.click(await screen.findByRole("button", { name: "Baixar PDF" }));

    await waitFor(() => expect(screen.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "70"));
    await waitFor(() => expect(downloads.saved.map((file) => file.fileName)).toEqual(["voucher-7K3M9Q2X4B8N.pdf"]), {
      timeout: 3000,
    });
    expect(pdfCalls).toBe(2);
  });
});
