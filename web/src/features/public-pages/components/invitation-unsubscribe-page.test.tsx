import { fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { jsonResponse } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi } from "@/testing/stub-api";

const UNSUBSCRIBE = "POST /api/invitation-unsubscribe";
const LINK = `/convites/descadastrar?s=3&e=${"ab".repeat(32)}&h=${"cd".repeat(32)}`;

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

describe("/convites/descadastrar", () => {
  it("stops the invitations once the addressee confirms, not on arrival", async () => {
    const api = stubApi({ [UNSUBSCRIBE]: () => new Response(null, { status: 204 }) });
    renderApp({ path: LINK });
    const button = await screen.findByRole("button", { name: "Não quero receber convites" });
    expect(api.callsTo(UNSUBSCRIBE)).toHaveLength(0);

    fireEvent.click(button);
    expect(await screen.findByText("Pronto: este endereço não receberá mais convites deste programa.")).toHaveAttribute(
      "role",
      "status",
    );
    expect(api.bodiesOf(UNSUBSCRIBE)).toEqual([{ station_id: 3, address: "ab".repeat(32), hash: "cd".repeat(32) }]);
  });

  it("shows the server's refusal of a forged link", async () => {
    stubApi({ [UNSUBSCRIBE]: () => jsonResponse({ messages: ["Link inválido."] }, 422) });
    renderApp({ path: LINK });
    fireEvent.click(await screen.findByRole("button", { name: "Não quero receber convites" }));
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("Link inválido."));
  });

  it("says an incomplete link is incomplete, without calling the server", async () => {
    const api = stubApi({});
    renderApp({ path: "/convites/descadastrar?s=3" });
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "O link está incompleto. Confira o endereço e tente novamente.",
    );
    expect(api.callsTo(UNSUBSCRIBE)).toHaveLength(0);
  });
});
