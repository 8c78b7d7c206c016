import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { StationProvider } from "@/features/stations/components/station-provider";
import { useStation } from "@/features/stations/station-context";
import { createQueryClient } from "@/lib/query-client";
import { buildStation, jsonResponse } from "@/testing/fixtures";

function StationName() {
  return <p>Estação: {useStation().name}</p>;
}

function renderStationProvider() {
  render(
    <QueryClientProvider client={createQueryClient(() => undefined)}>
      <StationProvider>
        <StationName />
      </StationProvider>
    </QueryClientProvider>,
  );
}

function stubApi(answers: Record<string, () => Response>) {
  const fetchMock = vi.fn((url: string) => {
    const answer = answers[url];
    return Promise.resolve(answer ? answer() : jsonResponse({ error: "Não encontrado" }, 404));
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

describe("StationProvider", () => {
  it("loads this host's station and applies its branding", async () => {
    const fetchMock = stubApi({
      "/api/config": () => jsonResponse({ station_id: 7 }),
      "/api/stations/7": () => jsonResponse(buildStation({ secondary_brand_color: null, font_family: "Open Sans" })),
    });
    renderStationProvider();

    expect(screen.getByText("Aguarde um momento...")).toBeInTheDocument();
    expect(await screen.findByText("Estação: Clube Filia Demo")).toBeInTheDocument();

    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(["/api/config", "/api/stations/7"]);
    const rootStyle = document.documentElement.style;
    expect(rootStyle.getPropertyValue("--brand-main")).toBe("#0E7C66");
    expect(rootStyle.getPropertyValue("--brand-on-main")).toBe("#ffffff");
    expect(rootStyle.getPropertyValue("--brand-secondary")).toBe("#0E7C66");
    expect(rootStyle.getPropertyValue("--brand-font")).toMatch(/^"Open Sans", "Lato"/);
    expect(document.title).toBe("Clube Filia Demo");
    expect(document.head.querySelector('link[rel="icon"]')).toHaveAttribute("href", "/brand/demo/favicon.svg");
  });

  it("shows an error page whose 'Tentar novamente' loads again", async () => {
    let configAnswers = 0;
    stubApi({
      "/api/config": () =>
        configAnswers++ === 0
          ? jsonResponse({ messages: ["Estação não encontrada"] }, 404)
          : jsonResponse({ station_id: 7 }),
      "/api/stations/7": () => jsonResponse(buildStation()),
    });
    renderStationProvider();

    expect(await screen.findByRole("heading", { name: "Não foi possível carregar esta página." })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Tentar novamente" }));

    expect(await screen.findByText("Estação: Clube Filia Demo")).toBeInTheDocument();
  });

  it("shows the test environment's banner above the page only when payments are simulated", async () => {
    stubApi({
      "/api/config": () => jsonResponse({ station_id: 7, test_environment: true }),
      "/api/stations/7": () => jsonResponse(buildStation()),
    });
    renderStationProvider();

    const banner = await screen.findByRole("complementary", { name: "Ambiente de testes" });
    expect(banner).toHaveTextContent("Ambiente de testes Os pagamentos são simulados e nada é cobrado de verdade.");
    // First in the page, before what the route renders.
    expect(banner.compareDocumentPosition(screen.getByText("Estação: Clube Filia Demo"))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
  });

  it("shows no banner in production", async () => {
    stubApi({
      "/api/config": () => jsonResponse({ station_id: 7, test_environment: false }),
      "/api/stations/7": () => jsonResponse(buildStation()),
    });
    renderStationProvider();

    expect(await screen.findByText("Estação: Clube Filia Demo")).toBeInTheDocument();
    expect(screen.queryByRole("complementary")).not.toBeInTheDocument();
  });
});
