/// <reference types="node" />
// Pagar.me's tokeniser, spoken to over real HTTP: a loopback stand-in answers as its
// documented `POST /core/v5/tokens?appId=...` does.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CARD_DATA_REFUSED_TEXT,
  CardTokenizerError,
  NO_TOKENIZER_TEXT,
  tokenizeAtProvider,
} from "@/features/commerce/api/card-tokenizer";
import { EMPTY_PAYMENT_FORM, NEW_CARD, type PaymentFormValues } from "@/features/commerce/payment-form";

interface Seen {
  url: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

const CARD: PaymentFormValues = {
  ...EMPTY_PAYMENT_FORM,
  type: "credit_card",
  selected_card: NEW_CARD,
  number: "4000 0000 0000 0010",
  name: "Maria da Silva",
  cpf: "529.982.247-25",
  expiry: "12/30",
  cvv: "123",
};

let server: Server;
let base = "";
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    request.on("end", () => {
      const body = JSON.parse(raw) as { card?: { number?: string } };
      seen.push({ url: request.url ?? "", headers: request.headers, body });
      const url = new URL(request.url ?? "/", "http://stand-in");
      response.setHeader("Content-Type", "application/json");
      if (url.pathname === "/core/v5/broken") {
        response.writeHead(502).end("<html>bad gateway</html>");
      } else if (url.searchParams.get("appId") !== "pk_test_abc") {
        response.writeHead(401).end(JSON.stringify({ message: "Authorization has been denied for this request." }));
      } else if (body.card?.number !== "4000000000000010") {
        response.writeHead(422).end(JSON.stringify({ message: "The request is invalid.", errors: { "request.card.number": ["The field number must be a string with a minimum length of 13 and a maximum length of 19."] } }));
      } else {
        response.writeHead(200).end(JSON.stringify({ id: "token_Ab12Cd34", type: "card", card: { last_four_digits: "0010" } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const tokenizer = (path = "/core/v5/tokens", app_id = "pk_test_abc") => ({ url: `${base}${path}`, app_id });

async function refusal(promise: Promise<string>): Promise<string> {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CardTokenizerError);
  return (error as Error).message;
}

describe("tokenizeAtProvider", () => {
  it("answers the token and sends the card with the public key and no other credential", async () => {
    expect(await tokenizeAtProvider(tokenizer(), CARD)).toBe("token_Ab12Cd34");
    const request = seen.at(-1);
    expect(request?.url).toBe("/core/v5/tokens?appId=pk_test_abc");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toEqual({
      type: "card",
      card: {
        number: "4000000000000010",
        holder_name: "Maria da Silva",
        holder_document: "52998224725",
        exp_month: 12,
        exp_year: 2030,
        cvv: "123",
      },
    });
  });

  it("tells the member the card was refused when the provider refuses its data", async () => {
    expect(await refusal(tokenizeAtProvider(tokenizer(), { ...CARD, number: "4000" }))).toBe(CARD_DATA_REFUSED_TEXT);
  });

  it("says a new card cannot be used now when our key is refused, the provider fails or cannot be reached", async () => {
    expect(await refusal(tokenizeAtProvider(tokenizer("/core/v5/tokens", "pk_wrong"), CARD))).toBe(NO_TOKENIZER_TEXT);
    expect(await refusal(tokenizeAtProvider(tokenizer("/core/v5/broken"), CARD))).toBe(NO_TOKENIZER_TEXT);
    expect(await refusal(tokenizeAtProvider({ url: "http://127.0.0.1:1/tokens", app_id: "pk_test_abc" }, CARD))).toBe(
      NO_TOKENIZER_TEXT,
    );
  });
});
