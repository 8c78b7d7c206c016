import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { BALANCE, CARD_TOKENS, SAVED_CARDS, simulatePixCall } from "@/features/commerce/testing/commerce-fixtures";
import { TOP_UP_POLL_MS } from "@/features/wallet/api/topups";
import {
  BANK,
  BUY_POINTS,
  TOP_UP_PATH,
  TOP_UP_SETTINGS,
  TRANSFER_REQUEST,
  TRANSFER_REQUESTS,
  buildPixTopUp,
  buildTopUp,
  buildTopUpSettings,
  buildTransferRequest,
  topUpCall,
  topUpCheckCall,
} from "@/features/wallet/testing/topup-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { DEFAULT_CONFIG, stubApi, type ApiHandler } from "@/testing/stub-api";

const SAVED_CARD = { id: 12, brand: "visa", last_digits: "4242", issuing: "visa", expiration_date: "12/30" };

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

function stubTopUps(handlers: Record<string, ApiHandler> = {}, { sandbox = false } = {}) {
  return stubApi(
    {
      [BALANCE]: () => jsonResponse(buildWalletBalance()),
      [TOP_UP_SETTINGS]: () => jsonResponse(buildTopUpSettings()),
      [TRANSFER_REQUESTS]: () => jsonResponse([]),
      [SAVED_CARDS]: () => jsonResponse([SAVED_CARD]),
      ...handlers,
    },
    { ...DEFAULT_CONFIG, payments_sandbox: sandbox },
  );
}

const click = (name: string) => fireEvent.click(screen.getByRole("button", { name }));
const notifications = () => screen.getByRole("region", { name: "Notificações" });

async function openTopUp(path = TOP_UP_PATH) {
  const rendered = renderApp({ path });
  await screen.findByRole("heading", { level: 1, name: "Comprar créditos" });
  return rendered;
}

async function toForm() {
  const rendered = await openTopUp();
  await screen.findByRole("group", { name: "Forma de pagamento" });
  return rendered;
}

function order(method: string, amount: string) {
  fireEvent.click(screen.getByRole("radio", { name: method }));
  fireEvent.change(screen.getByLabelText("Quantidade em BRL"), { target: { value: amount } });
}

describe("top-up page", () => {
  it("has the two tabs, moved by the arrow keys, and keeps the chosen one in the address", async () => {
    stubTopUps();
    const { page } = await openTopUp();

    expect(screen.getByRole("tab", { name: "Abastecer créditos" })).toHaveAttribute("aria-selected", "true");
    fireEvent.keyDown(screen.getByRole("tab", { name: "Abastecer créditos" }), { key: "ArrowRight" });

    const requests = screen.getByRole("tab", { name: "Pedidos de transferência" });
    expect(requests).toHaveAttribute("aria-selected", "true");
    expect(requests).toHaveFocus();
    expect(page.location.search).toBe("?aba=pedidos");
  });

  it("says while the settings load, and offers to try again when they cannot be read", async () => {
    let fail = true;
    stubTopUps({
      [TOP_UP_SETTINGS]: () => (fail ? jsonResponse({ error: "Erro interno no servidor" }, 500) : jsonResponse(buildTopUpSettings())),
    });
    await openTopUp();
    expect(screen.getByRole("status", { name: "Carregando formas de pagamento" })).toBeInTheDocument();

    const alert = await screen.findByRole("alert", {}, { timeout: 5000 });
    expect(alert).toHaveTextContent("Não foi possível carregar as formas de pagamento.");
    fail = false;
    fireEvent.click(within(alert).getByRole("button", { name: "Tentar novamente" }));

    expect(await screen.findByRole("group", { name: "Forma de pagamento" })).toBeInTheDocument();
  });

  it("offers PIX, Cartão and Transferência, and shows the bank details for a transfer", async () => {
    stubTopUps();
    await toForm();

    const methods = within(screen.getByRole("group", { name: "Forma de pagamento" })).getAllByRole("radio");
    expect(methods.map((radio) => radio.closest("label")?.textContent)).toEqual(["PIX", "Cartão", "Transferência"]);
    expect(screen.queryByText(BANK.account)).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole("radio", { name: "Transferência" }));

    const bank = screen.getByRole("region", { name: "Dados para transferência" });
    expect(bank).toHaveTextContent(BANK.bank_name);
    expect(bank).toHaveTextContent(BANK.agency);
    expect(bank).toHaveTextContent(BANK.account);
    expect(bank).toHaveTextContent(BANK.pix_key);
  });

  it("does not offer a transfer where the station has no bank details", async () => {
    stubTopUps({ [TOP_UP_SETTINGS]: () => jsonResponse(buildTopUpSettings({ bank: null })) });
    await toForm();

    expect(screen.getByRole("radio", { name: "PIX" })).toBeInTheDocument();
    expect(screen.queryByRole("radio", { name: "Transferência" })).not.toBeInTheDocument();
  });

  it("checks the station's limits with the server's texts before sending anything", async () => {
    const api = stubTopUps({ [TOP_UP_SETTINGS]: () => jsonResponse(buildTopUpSettings({ daily_left_cents: 20_000 })) });
    await toForm();

    click("Fazer pedido");
    expect(await screen.findByText("Escolha a forma de pagamento.")).toBeInTheDocument();
    expect(screen.getByText("Informe a quantidade em BRL.")).toBeInTheDocument();

    order("PIX", "999");
    expect(screen.getByLabelText("Quantidade em BRL")).toHaveValue("R$ 9,99");
    click("Fazer pedido");
    expect(await screen.findByText("O valor mínimo é R$ 10,00.")).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText("Quantidade em BRL"), { target: { value: "500001" } });
    expect(await screen.findByText("O valor máximo por pedido é R$ 5.000,00.")).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText("Quantidade em BRL"), { target: { value: "20001" } });
    expect(await screen.findByText("Limite diário de recarga atingido: você ainda pode pedir R$ 200,00.")).toBeInTheDocument();
    expect(api.callsTo(BUY_POINTS)).toHaveLength(0);
  });

  it("shows each of the server's refusals under the form and in the snackbar", async () => {
    const refusal = "Limite diário de recarga atingido: você ainda pode pedir R$ 5,00.";
    stubTopUps({ [BUY_POINTS]: () => jsonResponse({ messages: [refusal] }, 422) });
    await toForm();

    order("PIX", "5000");
    click("Fazer pedido");

    const errors = await screen.findByRole("alert");
    await waitFor(() => expect(errors).toHaveTextContent(refusal));
    // And once more in the snackbar.
    expect(screen.getAllByText(refusal)).toHaveLength(2);
  });
});

describe("top-up by PIX", () => {
  it("sends the amount in reais, shows the shop's PIX panel, and says it is waiting", async () => {
    const api = stubTopUps({
      [BUY_POINTS]: () => jsonResponse(buildPixTopUp(), 201),
      [topUpCall(41)]: () => jsonResponse(buildPixTopUp()),
      [topUpCheckCall(41)]: () => jsonResponse(buildPixTopUp()),
    });
    await toForm();

    order("PIX", "5050");
    click("Fazer pedido");

    expect(await screen.findByRole("heading", { name: "Pagamento com PIX" })).toBeInTheDocument();
    expect(api.bodySentTo(BUY_POINTS)).toEqual({ points: 50.5, method: "pix" });
    expect(screen.getByLabelText("Código PIX copia e cola")).toHaveValue("00020101021226770014BR.GOV.BCB.PIX6304EEAB");
    expect(screen.getByText("Aguardando a confirmação do pagamento.")).toHaveAttribute("role", "status");
    // Not the sandbox: nothing simulates the payment.
    expect(screen.queryByRole("button", { name: "Simular pagamento" })).not.toBeInTheDocument();

    click("Verificar pagamento");
    expect(await within(notifications()).findByText("Pagamento não confirmado")).toBeInTheDocument();
    expect(api.callsTo(topUpCheckCall(41))).toHaveLength(1);
  });

  it("shows the success and the statement's link once the check finds it credited", async () => {
    stubTopUps({
      [BUY_POINTS]: () => jsonResponse(buildPixTopUp(), 201),
      [topUpCall(41)]: () => jsonResponse(buildPixTopUp()),
      [topUpCheckCall(41)]: () => jsonResponse(buildTopUp({ method: "pix" })),
    });
    await toForm();
    order("PIX", "5000");
    click("Fazer pedido");
    await screen.findByRole("heading", { name: "Pagamento com PIX" });

    click("Verificar pagamento");

    const success = await screen.findByRole("heading", { name: "Operação realizada com sucesso" });
    await waitFor(() => expect(success).toHaveFocus());
    expect(screen.getByRole("link", { name: "Ver extrato" })).toHaveAttribute("href", "/homepage/extrato/extratos-totais");
    expect(screen.getByText("R$ 50,00")).toBeInTheDocument();
  });

  it("on the sandbox pays with 'Simular pagamento' and sees the credit without a check", async () => {
    let paid = false;
    const api = stubTopUps(
      {
        [BUY_POINTS]: () => jsonResponse(buildPixTopUp(), 201),
        [topUpCall(41)]: () => jsonResponse(paid ? buildTopUp({ method: "pix" }) : buildPixTopUp()),
        [simulatePixCall("sbx_pix_9")]: () => {
          paid = true;
          return jsonResponse({ charge_id: "sbx_pix_9", status: "paid" });
        },
      },
      { sandbox: true },
    );
    await toForm();
    order("PIX", "5000");
    click("Fazer pedido");
    await screen.findByRole("heading", { name: "Pagamento com PIX" });

    click("Simular pagamento");
    await waitFor(() => expect(api.callsTo(simulatePixCall("sbx_pix_9"))).toHaveLength(1));

    expect(
      await screen.findByRole("heading", { name: "Operação realizada com sucesso" }, { timeout: 3 * TOP_UP_POLL_MS }),
    ).toBeInTheDocument();
    expect(api.callsTo(topUpCheckCall(41))).toHaveLength(0);
    // The balance is read again once credited.
    await waitFor(() => expect(api.callsTo(BALANCE).length).toBeGreaterThan(1));
  }, 15_000);

  it("says a paid top-up above the threshold waits for staff", async () => {
    stubTopUps({
      [BUY_POINTS]: () => jsonResponse(buildPixTopUp(), 201),
      [topUpCall(41)]: () => jsonResponse(buildPixTopUp()),
      [topUpCheckCall(41)]: () => jsonResponse(buildTopUp({ method: "pix", status: "review", credited_at: null })),
    });
    await toForm();
    order("PIX", "200000");
    click("Fazer pedido");
    await screen.findByRole("heading", { name: "Pagamento com PIX" });

    click("Verificar pagamento");

    expect(await screen.findByRole("heading", { name: "Pedido em análise" })).toBeInTheDocument();
    click("Fazer novo pedido");
    expect(await screen.findByLabelText("Quantidade em BRL")).toHaveValue("");
  });

  it("goes back to the form with 'Tempo expirado' when the PIX expires", async () => {
    stubTopUps({
      [BUY_POINTS]: () => jsonResponse(buildPixTopUp(1), 201),
      [topUpCall(41)]: () => jsonResponse(buildPixTopUp(1)),
    });
    await toForm();
    order("PIX", "5000");
    click("Fazer pedido");
    await screen.findByRole("heading", { name: "Pagamento com PIX" });

    expect(await within(notifications()).findByText("Tempo expirado", {}, { timeout: 3000 })).toBeInTheDocument();
    expect(await screen.findByRole("group", { name: "Forma de pagamento" })).toBeInTheDocument();
  });
});

describe("top-up by card", () => {
  const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

  it("charges the first saved card by default, then shows the success and the statement", async () => {
    const api = stubTopUps({ [BUY_POINTS]: () => jsonResponse(buildTopUp(), 201) });
    const { page } = await toForm();

    order("Cartão", "5000");
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Cartão" })).toHaveValue("12"));
    expect(screen.queryByLabelText("Número do cartão")).not.toBeInTheDocument();
    click("Fazer pedido");

    expect(await within(notifications()).findByText("Operação realizada com sucesso")).toBeInTheDocument();
    expect(api.bodySentTo(BUY_POINTS)).toEqual({ points: 50, method: "card", card_id: 12 });
    await waitFor(() => expect(page.location.pathname).toBe("/homepage/extrato/extratos-totais"));
  });

  it("waits for the saved cards before offering the choice, then offers the first", async () => {
    let answer: (response: Response) => void = () => undefined;
    stubTopUps({ [SAVED_CARDS]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    await toForm();

    fireEvent.click(screen.getByRole("radio", { name: "Cartão" }));
    expect(await screen.findByText("Carregando seus cartões…")).toHaveAttribute("role", "status");
    expect(screen.queryByRole("combobox", { name: "Cartão" })).not.toBeInTheDocument();

    answer(jsonResponse([SAVED_CARD]));
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Cartão" })).toHaveValue("12"));
    fireEvent.change(screen.getByRole("combobox", { name: "Cartão" }), { target: { value: "0" } });
    expect(screen.getByLabelText("Número do cartão")).toBeInTheDocument();
  });

  it("tokenises a new card in the browser and sends only its token", async () => {
    const api = stubTopUps(
      {
        [SAVED_CARDS]: () => jsonResponse([]),
        [CARD_TOKENS]: () => jsonResponse({ card_token: "sbx_tok_1" }),
        [BUY_POINTS]: () => jsonResponse(buildTopUp(), 201),
      },
      { sandbox: true },
    );
    await toForm();
    order("Cartão", "5000");
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Cartão" })).toHaveValue("0"));

    click("Fazer pedido");
    expect(await screen.findAllByText("Esse campo é obrigatório")).not.toHaveLength(0);
    expect(api.callsTo(CARD_TOKENS)).toHaveLength(0);

    fill("Número do cartão", "4111111111111111");
    fill("Nome impresso no cartão", "Maria da Silva");
    fill("Validade (MM/AA)", "1230");
    fill("CVV", "123");
    fill("CPF do titular", "52998224725");
    click("Fazer pedido");

    await waitFor(() => expect(api.callsTo(BUY_POINTS)).toHaveLength(1));
    expect(api.bodySentTo(CARD_TOKENS)).toEqual({ number: "4111111111111111", holder_name: "Maria da Silva", expiry: "12/30", cvv: "123" });
    expect(api.bodySentTo(BUY_POINTS)).toEqual({ points: 50, method: "card", card_token: "sbx_tok_1" });
  });

  it("says a card still being decided is processing, and shows the success once it is credited", async () => {
    let credited = false;
    stubTopUps({
      [BUY_POINTS]: () => jsonResponse(buildTopUp({ status: "pending", credited_at: null }), 201),
      [topUpCall(41)]: () => {
        const answer = buildTopUp(credited ? {} : { status: "pending", credited_at: null });
        credited = true;
        return jsonResponse(answer);
      },
    });
    await toForm();
    order("Cartão", "5000");
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Cartão" })).toHaveValue("12"));

    click("Fazer pedido");

    expect(await screen.findByRole("heading", { name: "Pagamento em processamento" })).toBeInTheDocument();
    expect(
      await screen.findByRole("heading", { name: "Operação realizada com sucesso" }, { timeout: 3 * TOP_UP_POLL_MS }),
    ).toBeInTheDocument();
  }, 15_000);

  it("tells the declined card's reason and stays on the form", async () => {
    const reason = "Cartão recusado pelo emissor.";
    stubTopUps({ [BUY_POINTS]: () => jsonResponse({ messages: [reason] }, 422) });
    await toForm();
    order("Cartão", "5000");
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Cartão" })).toHaveValue("12"));

    click("Fazer pedido");

    const errors = await screen.findByRole("alert");
    await waitFor(() => expect(errors).toHaveTextContent(reason));
    expect(screen.getByRole("button", { name: "Fazer pedido" })).toBeEnabled();
  });
});

describe("transfer requests", () => {
  it("asks for a transfer of type 5 and says the order was generated", async () => {
    let listed = false;
    const api = stubTopUps({
      [TRANSFER_REQUEST]: () => {
        listed = true;
        return jsonResponse(buildTransferRequest(), 201);
      },
      [TRANSFER_REQUESTS]: () => jsonResponse(listed ? [buildTransferRequest()] : []),
    });
    await toForm();

    order("Transferência", "15050");
    click("Fazer pedido");

    const dialog = await screen.findByRole("dialog", { name: "Pedido gerado" });
    expect(dialog).toHaveTextContent("Você será informado por e-mail assim que o pagamento for confirmado.");
    expect(api.bodySentTo(TRANSFER_REQUEST)).toEqual({ user_id: 1, type_id: 5, points: 150.5 });
    expect(api.callsTo(BUY_POINTS)).toHaveLength(0);

    fireEvent.click(within(dialog).getByRole("button", { name: "Ver pedidos de transferência" }));

    const table = await screen.findByRole("table", { name: "Pedidos de transferência" });
    const [, row] = within(table).getAllByRole("row");
    expect(row).toHaveTextContent("28/11/2026");
    expect(row).toHaveTextContent("R$ 150,50");
    expect(row).toHaveTextContent("Aguardando confirmação");
  });

  it("lists Data, Valor and Status, newest first as the server gives them", async () => {
    stubTopUps({
      [TRANSFER_REQUESTS]: () =>
        jsonResponse([
          buildTransferRequest({ id: 8, points: 20, status: { name: "Confirmado" } }),
          buildTransferRequest({ id: 7, points: 1000, status: { name: "Expirado" } }),
        ]),
    });
    await openTopUp(`${TOP_UP_PATH}?aba=pedidos`);

    const table = await screen.findByRole("table", { name: "Pedidos de transferência" });
    expect(within(table).getAllByRole("columnheader").map((cell) => cell.textContent)).toEqual(["Data", "Valor", "Status"]);
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => row.textContent)).toEqual(["28/11/2026R$ 20,00Confirmado", "28/11/2026R$ 1.000,00Expirado"]);
  });

  it("says when there are none yet", async () => {
    stubTopUps();
    await openTopUp(`${TOP_UP_PATH}?aba=pedidos`);

    expect(await screen.findByText("Você ainda não fez pedidos de transferência.")).toBeInTheDocument();
  });

  it("offers to try again when they cannot be read", async () => {
    let fail = true;
    stubTopUps({
      [TRANSFER_REQUESTS]: () => (fail ? jsonResponse({ error: "Erro interno no servidor" }, 500) : jsonResponse([buildTransferRequest()])),
    });
    await openTopUp(`${TOP_UP_PATH}?aba=pedidos`);

    const alert = await screen.findByRole("alert", {}, { timeout: 5000 });
    expect(alert).toHaveTextContent("Não foi possível carregar os pedidos de transferência.");
    fail = false;
    fireEvent.click(within(alert).getByRole("button", { name: "Tentar novamente" }));

    expect(await screen.findByRole("table", { name: "Pedidos de transferência" })).toBeInTheDocument();
  });
});
