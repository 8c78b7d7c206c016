import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import {
  BALANCE,
  CREATE_VOUCHERS,
  buildOrder,
  orderCall,
  pdfResponse,
  receiptCall,
} from "@/features/commerce/testing/commerce-fixtures";
import { catchDownloads } from "@/testing/downloads";
import { DEMO_JOB_ID, DEMO_JOB_PATH, buildJob } from "@/features/jobs/testing/job-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";
import type { Order } from "@/types/api";

let downloads: ReturnType<typeof catchDownloads>;

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
  downloads = catchDownloads();
});

afterEach(() => downloads.undo());

function stubOrderPage(handlers: Record<string, ApiHandler>) {
  return stubApi({ [BALANCE]: () => jsonResponse(buildWalletBalance()), ...handlers });
}

/** Answers in turn; the last one keeps answering. */
function inTurn(...answers: Array<() => Response>): ApiHandler {
  let calls = 0;
  return () => {
    const answer = answers[Math.min(calls, answers.length - 1)] as () => Response;
    calls += 1;
    return answer();
  };
}

const voucherAction: Order["action"] = { id: 21, name: "Cupom do cinema", type_id: 3, sell_vouchers: true, familiarVoucher: false };

describe("the order's receipt", () => {
  it("follows the job making the PDF, showing its progress, then downloads the file", async () => {
    const api = stubOrderPage({
      [orderCall(77)]: () => jsonResponse([buildOrder()]),
      [receiptCall(77)]: inTurn(() => jsonResponse({ job_id: DEMO_JOB_ID }, 202), pdfResponse),
      [`GET ${DEMO_JOB_PATH}`]: inTurn(
        () => jsonResponse(buildJob({ kind: "receipt.pdf", state: "running", progress: 40 })),
        () => jsonResponse(buildJob({ kind: "receipt.pdf", state: "succeeded", progress: 100 })),
      ),
    });
    renderApp({ path: "/homepage/pedidos/77" });

    fireEvent.click(await screen.findByRole("button", { name: "Ver comprovante" }));
    const bar = await screen.findByRole("progressbar");
    await waitFor(() => expect(bar).toHaveAttribute("aria-valuenow", "40"));
    expect(screen.getByText("Processando...")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Ver comprovante" })).toBeDisabled();
    expect(downloads.saved).toHaveLength(0);

    await waitFor(() => expect(downloads.saved.map((file) => file.fileName)).toEqual(["comprovante-PED-000077.pdf"]), {
      timeout: 3000,
    });
    expect(downloads.saved[0]?.blob.size).toBe(4);
    expect(api.callsTo(receiptCall(77))).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole("progressbar")).not.toBeInTheDocument());
    expect(screen.getByRole("button", { name: "Ver comprovante" })).toBeEnabled();
  });

  it("downloads a stored receipt at once", async () => {
    const api = stubOrderPage({ [orderCall(77)]: () => jsonResponse([buildOrder()]), [receiptCall(77)]: pdfResponse });
    renderApp({ path: "/homepage/pedidos/77" });
    fireEvent.click(await screen.findByRole("button", { name: "Ver comprovante" }));
    await waitFor(() => expect(downloads.saved).toHaveLength(1));
    expect(api.callsTo(`GET ${DEMO_JOB_PATH}`)).toHaveLength(0);
  });

  it("says so when the job making the PDF fails", async () => {
    stubOrderPage({
      [orderCall(77)]: () => jsonResponse([buildOrder()]),
      [receiptCall(77)]: () => jsonResponse({ job_id: DEMO_JOB_ID }, 202),
      [`GET ${DEMO_JOB_PATH}`]: () => jsonResponse(buildJob({ state: "failed", progress: 10, error: "font missing" })),
    });
    renderApp({ path: "/homepage/pedidos/77" });
    fireEvent.click(await screen.findByRole("button", { name: "Ver comprovante" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Não foi possível gerar o PDF. Tente novamente.");
    // The job's own error is for staff, not the member.
    expect(screen.queryByText(/font missing/)).not.toBeInTheDocument();
    expect(downloads.saved).toHaveLength(0);
  });

  it("offers no receipt for an order not paid", async () => {
    const api = stubOrderPage({
      [orderCall(77)]: () => jsonResponse([buildOrder({ status: "Aguardando pagamento", status_code: "pending", paid_at: null })]),
    });
    renderApp({ path: "/homepage/pedidos/77" });
    expect(await screen.findByRole("heading", { level: 1, name: "Comprovante do pedido" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Ver comprovante" })).not.toBeInTheDocument();
    expect(api.callsTo(receiptCall(77))).toHaveLength(0);
  });

  it("shows the server's refusal of the receipt", async () => {
    stubOrderPage({
      [orderCall(77)]: () => jsonResponse([buildOrder()]),
      [receiptCall(77)]: () => jsonResponse({ error: "O comprovante fica disponível após a confirmação do pagamento." }, 409),
    });
    renderApp({ path: "/homepage/pedidos/77" });
    fireEvent.click(await screen.findByRole("button", { name: "Ver comprovante" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("O comprovante fica disponível após a confirmação do pagamento.");
  });
});

describe("the order's vouchers", () => {
  it("are made once for a paid order that sells them, and the order is read again", async () => {
    const api = stubOrderPage({
      [orderCall(77)]: inTurn(
        () => jsonResponse([buildOrder({ action: voucherAction, create_vouchers: false })]),
        () => jsonResponse([buildOrder({ action: voucherAction, create_vouchers: true })]),
      ),
      [CREATE_VOUCHERS]: () => jsonResponse([]),
    });
    renderApp({ path: "/homepage/pedidos/77" });

    expect(await screen.findByRole("link", { name: "Meus vouchers" })).toHaveAttribute("href", "/homepage/vouchers");
    expect(api.bodiesOf(CREATE_VOUCHERS)).toEqual([{ should_contact: true, product_orders: 77, user_id: 1 }]);
    expect(api.callsTo(orderCall(77))).toHaveLength(2);
  });

  it("says 'Erro ao gerar os vouchers.' when they cannot be made, reads the order again and does not ask twice", async () => {
    const api = stubOrderPage({
      [orderCall(77)]: () => jsonResponse([buildOrder({ action: voucherAction, create_vouchers: false })]),
      [CREATE_VOUCHERS]: () => jsonResponse({ messages: ["Erro ao gerar os vouchers."] }, 422),
    });
    renderApp({ path: "/homepage/pedidos/77" });

    expect(await screen.findByText("Erro ao gerar os vouchers.")).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(orderCall(77))).toHaveLength(2));
    expect(api.callsTo(CREATE_VOUCHERS)).toHaveLength(1);
    expect(screen.queryByRole("link", { name: "Meus vouchers" })).not.toBeInTheDocument();
  });

  it("are not asked for an order whose vouchers exist, nor for one not paid", async () => {
    const api = stubOrderPage({
      [orderCall(77)]: () => jsonResponse([buildOrder({ action: voucherAction, create_vouchers: true })]),
      [orderCall(78)]: () =>
        jsonResponse([buildOrder({ id: 78, action: voucherAction, status: "Aguardando pagamento", status_code: "pending" })]),
    });
    const { page } = renderApp({ path: "/homepage/pedidos/77" });
    expect(await screen.findByRole("link", { name: "Meus vouchers" })).toBeInTheDocument();
    await page.navigate("/homepage/pedidos/78");
    await waitFor(() => expect(api.callsTo(orderCall(78))).toHaveLength(1));
    expect(await screen.findByRole("heading", { level: 1, name: "Comprovantes de compra" })).toBeInTheDocument();
    expect(api.callsTo(CREATE_VOUCHERS)).toHaveLength(0);
  });
});
