import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { Activity } from "@/types/api";
import { activityCall, buildActivity, homeHandlers } from "@/features/activities/testing/activity-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { buildInvitationSent, FIXTURE_LINK, SEND_MGP_CALL } from "@/features/invitations/testing/invitation-fixtures";
import { buildWalletBalance, jsonResponse, signIn } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
  signIn();
});

const invite = (overrides: Partial<Activity> = {}) =>
  buildActivity({ id: 19, name: "Indique e ganhe", type_id: 19, points: 100, click_me_label: null, ...overrides });

function stubInvite(activity: Activity, handlers: Record<string, ApiHandler> = {}) {
  return stubApi({
    "GET /api/users-points/1": () => jsonResponse(buildWalletBalance()),
    [activityCall(activity.id)]: () => jsonResponse(activity),
    ...homeHandlers(),
    ...handlers,
  });
}

async function openInvite(activity: Activity) {
  renderApp({ path: `/homepage/atividades/${activity.id}` });
  await screen.findByRole("heading", { name: activity.name, level: 1 });
  // The form is loaded with the page of an invitation activity.
  await screen.findByRole("button", { name: "Adicionar e-mail" });
}

const address = (n: number) => screen.getByLabelText(`E-mail do convidado ${n}`);
const add = () => fireEvent.click(screen.getByRole("button", { name: "Adicionar e-mail" }));
const send = () => fireEvent.click(screen.getByRole("button", { name: "Enviar convites" }));

describe("invitation (types 1 and 19)", () => {
  it("takes the first address and four more; a sixth is the snackbar's 'Limite de contatos alcançado'", async () => {
    stubInvite(invite());
    await openInvite(invite());

    expect(address(1)).toBeInTheDocument();
    for (let n = 0; n < 4; n += 1) add();
    expect(address(5)).toBeInTheDocument();
    expect(screen.queryByText("Limite de contatos alcançado")).toBeNull();
    add();
    expect(await screen.findByText("Limite de contatos alcançado")).toBeInTheDocument();
    expect(screen.queryByLabelText("E-mail do convidado 6")).toBeNull();
    // A removed address makes room again.
    fireEvent.click(screen.getByRole("button", { name: "Remover e-mail 5" }));
    expect(screen.queryByLabelText("E-mail do convidado 5")).toBeNull();
  });

  it("requires every address and a valid one before sending anything", async () => {
    const api = stubInvite(invite());
    await openInvite(invite());

    add();
    fireEvent.change(address(1), { target: { value: "ana@" } });
    send();
    expect(await screen.findByText("Email inválido")).toBeInTheDocument();
    expect(address(1)).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("Esse campo é obrigatório")).toBeInTheDocument();
    expect(address(2)).toHaveAttribute("aria-invalid", "true");
    expect(api.callsTo(SEND_MGP_CALL)).toHaveLength(0);
  });

  it("sends the addresses from the activity, then says 'Sucesso' and clears the form", async () => {
    const api = stubInvite(invite(), {
      [SEND_MGP_CALL]: (body) => jsonResponse(buildInvitationSent((body as { emails: string[] }).emails), 201),
    });
    await openInvite(invite());

    expect(screen.getByLabelText("Seu link de convite")).toHaveValue(FIXTURE_LINK);
    fireEvent.change(address(1), { target: { value: " ana@example.com " } });
    add();
    fireEvent.change(address(2), { target: { value: "bia@example.com" } });
    send();

    const toasts = screen.getByRole("region", { name: "Notificações" });
    expect(await within(toasts).findByText("Operação realizada com sucesso")).toBeInTheDocument();
    expect(within(toasts).getByText("Sucesso")).toBeInTheDocument();
    expect(api.bodiesOf(SEND_MGP_CALL)).toEqual([
      {
        action_id: 19,
        emails: ["ana@example.com", "bia@example.com"],
        sender_name: "Maria Silva",
        station_name: expect.any(String) as string,
        points: 100,
        station_id: 7,
      },
    ]);
    await waitFor(() => expect(address(1)).toHaveValue(""));
    expect(screen.queryByLabelText("E-mail do convidado 2")).toBeNull();
  });

  it("shows the server's refusal as the error toast", async () => {
    stubInvite(invite(), {
      [SEND_MGP_CALL]: () => jsonResponse({ messages: ["Hoje você ainda pode convidar 1 contato."] }, 422),
    });
    await openInvite(invite());

    fireEvent.change(address(1), { target: { value: "ana@example.com" } });
    send();
    const toasts = screen.getByRole("region", { name: "Notificações" });
    expect(await within(toasts).findByText("Hoje você ainda pode convidar 1 contato.")).toBeInTheDocument();
  });

  it("is hidden once the member reached the activity's limit", async () => {
    const full = invite({ availability: "limit_reached", userActions: 1 });
    stubInvite(full);
    renderApp({ path: `/homepage/atividades/${full.id}` });
    await screen.findByRole("heading", { name: full.name, level: 1 });
    expect(await screen.findByText("Olá, você já ultrapassou o limite de participações nessa atividade!")).toBeInTheDocument();
    expect(screen.queryByLabelText("E-mail do convidado 1")).toBeNull();
  });
});
