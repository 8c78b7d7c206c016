import { fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import {
  BACK_HOME_BUTTON,
  FeedbackDialog,
  PURCHASES_BUTTON,
  type FeedbackButton,
} from "@/features/activities/components/feedback-dialog";
import { buildActivity } from "@/features/activities/testing/activity-fixtures";
import { HeaderBalance } from "@/features/wallet";
import { buildStation, buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { stubApi } from "@/testing/stub-api";
import { TestProviders } from "@/testing/test-providers";

const BALANCE = "GET /api/users-points/1";
const ACTIVITY_PATH = "/homepage/atividades/9";

beforeEach(() => {
  signIn();
});

function Location() {
  return <output aria-label="Endereço">{useLocation().pathname}</output>;
}

/** The dialog over a page that asks for the member's balance, as the member area's top bar does. */
function Page({ returnTo, buttons }: { returnTo: string; buttons?: FeedbackButton[] }) {
  const [open, setOpen] = useState(true);
  return open ? (
    <FeedbackDialog
      activity={buildActivity({ name: "Conheça o clube" })}
      returnTo={returnTo}
      buttons={buttons}
      onClose={() => setOpen(false)}
    />
  ) : (
    <p>Conteúdo</p>
  );
}

/** Renders the dialog under the top bar's balance, which the credit raises from 150,50 to 160,50. */
async function renderDialog(props: { returnTo: string; buttons?: FeedbackButton[] }) {
  let credited = false;
  const api = stubApi({
    [BALANCE]: () => jsonResponse(buildWalletBalance({ points_cents: credited ? 16050 : 15050 })),
  });
  render(
    <TestProviders station={buildStation()}>
      <MemoryRouter initialEntries={[ACTIVITY_PATH]} useTransitions={false}>
        <HeaderBalance linksToStatement={false} />
        <Location />
        <Routes>
          <Route path={ACTIVITY_PATH} element={<Page {...props} />} />
          <Route path="*" element={<p>Outra página</p>} />
        </Routes>
      </MemoryRouter>
    </TestProviders>,
  );
  await screen.findByText("150,50 Pontos");
  credited = true;
  return api;
}

const location = () => screen.getByRole("status", { name: "Endereço" }).textContent;

const balanceRefreshed = () => screen.findByText("160,50 Pontos");

describe("feedback dialog", () => {
  it("offers 'Página inicial' to /homepage unless told otherwise", async () => {
    await renderDialog({ returnTo: ACTIVITY_PATH });

    const dialog = screen.getByRole("dialog", { name: "Conheça o clube" });
    expect(within(dialog).getByText("Obrigado por participar!")).toBeInTheDocument();
    expect(within(dialog).getAllByRole("link").map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["Página inicial", "/homepage"],
    ]);
  });

  it("shows the buttons the participation offers, in order", async () => {
    await renderDialog({ returnTo: ACTIVITY_PATH, buttons: [PURCHASES_BUTTON, BACK_HOME_BUTTON] });

    const links = within(screen.getByRole("dialog")).getAllByRole("link");
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["Ir para minhas compras", "/homepage/minhas-compras"],
      ["Voltar para a página inicial", "/homepage"],
    ]);

    fireEvent.click(links[0]!);
    expect(location()).toBe("/homepage/minhas-compras");
    expect(await balanceRefreshed()).toBeInTheDocument();
  });

  it("returns to the given route when dismissed, and refreshes the member's points", async () => {
    const api = await renderDialog({ returnTo: "/homepage" });
    expect(api.callsTo(BALANCE)).toHaveLength(1);

    fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });

    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(location()).toBe("/homepage");
    expect(await balanceRefreshed()).toBeInTheDocument();
  });

  it("stays on the page when it is the route to return to", async () => {
    await renderDialog({ returnTo: ACTIVITY_PATH });

    fireEvent.click(screen.getByRole("dialog").parentElement!);

    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByText("Conteúdo")).toBeInTheDocument();
    expect(location()).toBe(ACTIVITY_PATH);
    expect(await balanceRefreshed()).toBeInTheDocument();
  });
});
