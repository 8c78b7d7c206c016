import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { BANK_PRIVACY_STATION_ID } from "@/features/public-pages/legal/privacy-policy";
import { buildStation, demoEstablishment } from "@/testing/fixtures";
import { renderApp } from "@/testing/render-app";

const TERMS_SECTIONS = [
  "1. O que é o Programa",
  "2. Conta de acesso",
  "3. Afiliados",
  "4. Recompensas",
  "5. Ações",
  "6. Carteira",
  "7. Crédito na carteira",
  "8. Resgate de saldo",
  "9. Duração do Programa",
  "10. Ambiente digital",
  "11. Direitos da Organizadora",
  "12. Limites de responsabilidade",
];

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

describe("/termos-de-uso", () => {
  it("shows the terms of the station, with every section and the date of 05 May 2023", async () => {
    renderApp({ path: "/termos-de-uso" });

    expect(await screen.findByRole("heading", { level: 1, name: "Termos de uso" })).toBeInTheDocument();
    expect(screen.getByText("Última atualização: 05 de maio de 2023")).toBeInTheDocument();
    const sectionTitles = screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent);
    expect(sectionTitles).toEqual([...TERMS_SECTIONS, "13. Contato"]);
    expect(
      screen.getByText(/oferecido por Associação Filia Demo, inscrita no CNPJ sob o nº 11\.222\.333\/0001-81/),
    ).toHaveTextContent('Estes Termos de Uso regulam a participação no programa Clube Filia Demo (o "Programa")');
  });

  it("asks for a CPF and an age of 18 or more", async () => {
    renderApp({ path: "/termos-de-uso" });

    const account = await screen.findByRole("region", { name: "2. Conta de acesso" });
    expect(within(account).getByText(/é preciso ser maior de 18 \(dezoito\) anos, possuir CPF/)).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "4. Recompensas" })).toHaveTextContent("em Pontos ou em créditos");
    expect(screen.getByRole("link", { name: "Clube Filia Demo" })).toHaveAttribute("href", "/");
  });

  it("gives the no-CPF station 187 its own text, without a CPF", async () => {
    renderApp({ path: "/termos-de-uso", station: buildStation({ id: 187, name: "Clube Sem CPF", no_cpf: true }) });

    const account = await screen.findByRole("region", { name: "2. Conta de acesso" });
    expect(account).toHaveTextContent("Neste Programa não é pedido CPF");
    expect(account).not.toHaveTextContent("possuir CPF");
    expect(account).toHaveTextContent("maior de 18 (dezoito) anos");
    expect(screen.getByText("Última atualização: 05 de maio de 2023")).toBeInTheDocument();
  });

  it("names the station alone when it has no establishment", async () => {
    renderApp({ path: "/termos-de-uso", station: buildStation({ establishment: null }) });

    expect(await screen.findByText(/oferecido por Clube Filia Demo \(a "Organizadora"\)/)).toBeInTheDocument();
  });
});

describe("/politica-de-privacidade", () => {
  it("shows the station's logo and a policy in the name of its social name", async () => {
    renderApp({ path: "/politica-de-privacidade" });

    expect(await screen.findByRole("heading", { level: 1, name: "Política de privacidade" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Clube Filia Demo" })).toHaveAttribute("src", "/brand/demo/logo.svg");
    expect(screen.getByText("Última atualização: 05 de maio de 2023")).toBeInTheDocument();
    expect(
      screen.getByText(/Associação Filia Demo, inscrita no CNPJ sob o nº 11\.222\.333\/0001-81, controladora/),
    ).toHaveTextContent("tratados no programa Clube Filia Demo");
  });

  it("states the consent age of 16 and the 6-month keeping of access logs", async () => {
    renderApp({ path: "/politica-de-privacidade" });

    expect(await screen.findByRole("region", { name: "4. Crianças e adolescentes" })).toHaveTextContent(
      "sem a assistência de um dos pais ou responsável legal é de 16 anos",
    );
    expect(screen.getByRole("region", { name: "7. Por quanto tempo guardamos os dados" })).toHaveTextContent(
      "são guardados por 6 (seis) meses",
    );
    expect(screen.getByRole("region", { name: "10. Alterações e contato" })).toHaveTextContent(
      "pelo e-mail contato@filia.example",
    );
  });

  it("shows station 171 the bank's own privacy notice", async () => {
    const bank = buildStation({
      id: BANK_PRIVACY_STATION_ID,
      name: "Programa Banco Parceiro",
      establishment: { ...demoEstablishment, full_social_name: "Banco Parceiro S.A." },
    });
    renderApp({ path: "/politica-de-privacidade", station: bank });

    expect(await screen.findByRole("heading", { level: 1, name: "Aviso de privacidade" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Política de privacidade" })).not.toBeInTheDocument();
    expect(screen.getByRole("region", { name: "3. Sigilo bancário" })).toHaveTextContent(
      "Lei Complementar nº 105/2001",
    );
    expect(screen.getByRole("region", { name: "1. Quem trata os seus dados" })).toHaveTextContent(
      "Banco Parceiro S.A. é o controlador",
    );
    expect(screen.getByRole("region", { name: "6. Idade mínima" })).toHaveTextContent("é de 16 anos");
    expect(screen.getByRole("region", { name: "7. Retenção" })).toHaveTextContent("6 (seis) meses");
  });
});
