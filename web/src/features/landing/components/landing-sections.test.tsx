import { act, fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { buildActivityCard, PUBLIC_FEATURED_CALL } from "@/features/activities/testing/activity-fixtures";
import { COOKIE_CONSENT_KEY } from "@/features/consent";
import { cardsPerView } from "@/features/landing/components/card-carousel";
import { SLIDE_INTERVAL_MS } from "@/features/landing/components/header-slides";
import {
  aboutCall,
  buildAboutPage,
  buildItem,
  buildSection,
  buildSlide,
  LANDING_CALL,
} from "@/features/landing/testing/landing-fixtures";
import { buildPlan, PLANS } from "@/features/subscriptions/testing/subscription-fixtures";
import { buildStation, jsonResponse } from "@/testing/fixtures";
import { stubIntersectionObserver } from "@/testing/intersection-observer";
import { renderApp } from "@/testing/render-app";
import { stubApi, type ApiHandler } from "@/testing/stub-api";
import type { Landing, Station } from "@/types/api";

beforeEach(() => {
  window.localStorage.setItem(COOKIE_CONSENT_KEY, "2026-11-21T10:00:00.000Z");
});

function renderLanding(landing: Partial<Landing>, handlers: Record<string, ApiHandler> = {}, station?: Station) {
  const api = stubApi({
    [LANDING_CALL]: () => jsonResponse({ slides: [], sections: [], about_pages: [], ...landing }),
    ...handlers,
  });
  return { ...renderApp({ path: "/", station }), api };
}

const everyType = [
  buildSection({
    id: 1,
    type_id: 1,
    title: "Benefícios",
    items: [buildItem({ id: 11, name: "Descontos", description: "Em lojas parceiras", link_type: "signup" })],
  }),
  buildSection({
    id: 2,
    type_id: 2,
    title: "Como funciona",
    items: [
      buildItem({ id: 21, name: "Participe", image: "/api/media/a.png", image_left: true, link_type: "login" }),
      buildItem({ id: 22, name: "Ganhe", image: "/api/media/b.png", link_type: "nolink" }),
    ],
  }),
  buildSection({ id: 3, type_id: 3, title: "Parceiros", items: [buildItem({ id: 31, name: "Parceiro A" })] }),
  buildSection({
    id: 4,
    type_id: 4,
    title: "Nossa missão",
    background_type: "image",
    background_image: "/api/media/fundo.png",
    items: [buildItem({ id: 41, name: null, description: "Cuidar de quem faz o clube.", link_type: "additional", about_page_id: 3 })],
  }),
  buildSection({ id: 5, type_id: 5, title: "Atividades" }),
  buildSection({ id: 6, type_id: 6, title: "Baixe o app" }),
  buildSection({ id: 7, type_id: 7, title: "Planos" }),
  buildSection({ id: 8, type_id: 8, title: "Contato" }),
  buildSection({
    id: 9,
    type_id: 9,
    title: "Galeria",
    items: [buildItem({ id: 91, name: "Festa junina", image: "/api/media/festa.png", link_type: "external", external_link: "https://exemplo.com.br" })],
  }),
];

describe("the landing's sections", () => {
  it("renders the sections in order, each by its type", async () => {
    const withApp = buildStation({ has_app: true, ios_link: "https://apps.apple.com/x", android_link: null });
    renderLanding(
      { sections: everyType, about_pages: [{ id: 3, title: "Quem somos" }] },
      { [PUBLIC_FEATURED_CALL]: () => jsonResponse([]), [PLANS]: () => jsonResponse([]) },
      withApp,
    );

    expect(await screen.findByRole("heading", { level: 2, name: "Benefícios" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "Clube Filia Demo" })).toBeInTheDocument();
    const titles = screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent);
    expect(titles.slice(0, 9)).toEqual([
      "Benefícios",
      "Como funciona",
      "Parceiros",
      "Nossa missão",
      "Atividades",
      "Baixe o app",
      "Planos",
      "Contato",
      "Galeria",
    ]);
    // 1: a card with its button.
    const cards = screen.getByRole("region", { name: "Benefícios" });
    expect(within(cards).getByRole("heading", { level: 3, name: "Descontos" })).toBeInTheDocument();
    expect(within(cards).getByRole("link", { name: "Cadastre-se: Descontos" })).toHaveAttribute("href", "/cadastrar");
    // 2: blocks, the picture's side by image_left; no button for nolink.
    const blocks = screen.getByRole("region", { name: "Como funciona" });
    expect(blocks.querySelectorAll(".landing-block--media-left")).toHaveLength(1);
    expect(within(blocks).getByRole("link", { name: "Entrar: Participe" })).toHaveAttribute("href", "/login");
    expect(within(blocks).getAllByRole("link")).toHaveLength(1);
    // 3: the card carousel (its own chunk), a region inside the section's.
    expect(await screen.findAllByRole("region", { name: "Parceiros" })).toHaveLength(2);
    // 4: centred text on its background picture, linking an about page.
    const centred = screen.getByRole("region", { name: "Nossa missão" });
    expect(centred.querySelector(".landing-section__background")).toHaveAttribute("src", "/api/media/fundo.png");
    expect(within(centred).getByRole("link", { name: "Saiba mais" })).toHaveAttribute("href", "/sobre/3");
    // 6: the store badge the station has.
    const badges = screen.getByRole("region", { name: "Baixe o app" });
    expect(within(badges).getByRole("link", { name: /App Store/ })).toHaveAttribute("href", "https://apps.apple.com/x");
    expect(within(badges).queryByRole("link", { name: /Google Play/ })).not.toBeInTheDocument();
    // 8: the support form ('Fale conosco'), loaded with its section.
    const contact = screen.getByRole("region", { name: "Contato" });
    expect(await within(contact).findByLabelText("Assunto")).toBeInTheDocument();
    expect(within(contact).getByRole("button", { name: /Enviar/ })).toBeInTheDocument();
    // 9: media only, with an external link nowhere (media sections show no buttons).
    expect(within(screen.getByRole("region", { name: "Galeria" })).getByRole("img", { name: "Festa junina" })).toBeInTheDocument();
    // The footer's about pages.
    expect(screen.getByRole("link", { name: "Quem somos" })).toHaveAttribute("href", "/sobre/3");
  });

  it("leaves out the app badges of a station without an app", async () => {
    renderLanding({ sections: [everyType[0]!, everyType[5]!] });

    expect(await screen.findByRole("heading", { level: 2, name: "Benefícios" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Baixe o app" })).not.toBeInTheDocument();
  });

  it("loads the public activities and the plans only when they come near the viewport", async () => {
    const viewport = stubIntersectionObserver();
    const { api } = renderLanding(
      { sections: [everyType[4]!, everyType[6]!] },
      {
        [PUBLIC_FEATURED_CALL]: () => jsonResponse([buildActivityCard({ id: 12, name: "Café com o presidente" })]),
        [PLANS]: () =>
          jsonResponse([
            buildPlan({ id: 2, name: "Ouro", amount: 4990 }),
            buildPlan({ id: 3, name: "Empresas", amount: null }),
          ]),
      },
    );
    expect(await screen.findByRole("heading", { level: 2, name: "Planos" })).toBeInTheDocument();
    expect(api.callsTo(PLANS)).toHaveLength(0);
    expect(api.callsTo(PUBLIC_FEATURED_CALL)).toHaveLength(0);

    await viewport.scrollIntoView();

    expect(await screen.findByRole("link", { name: "Conhecer o plano: Ouro" })).toHaveAttribute("href", "/planos/2");
    expect(screen.getByRole("link", { name: "Cadastre-se: Empresas" })).toHaveAttribute("href", "/cadastrar");
    expect(await screen.findByRole("link", { name: /Café com o presidente/ })).toHaveAttribute("href", "/atividade/12");
  });

  it("adds the Enterprise card to the plans, to /suporte-enterprise, only where the station offers it", async () => {
    const viewport = stubIntersectionObserver();
    renderLanding(
      { sections: [everyType[6]!] },
      { [PLANS]: () => jsonResponse([buildPlan({ id: 2, name: "Ouro", amount: 4990 })]) },
      buildStation({ enterprise_plan_access: true }),
    );
    await screen.findByRole("heading", { level: 2, name: "Planos" });
    await viewport.scrollIntoView();

    const card = await screen.findByRole("article", { name: "Enterprise" });
    expect(within(card).getByRole("link", { name: "Entrar em contato: Enterprise" })).toHaveAttribute("href", "/suporte-enterprise");
    // After the station's plans.
    expect(screen.getAllByRole("article").map((article) => article.getAttribute("aria-labelledby"))).toEqual([
      "plan-2-name",
      "plan-enterprise-name",
    ]);
  });

  it("shows no Enterprise card where the station does not offer it", async () => {
    const viewport = stubIntersectionObserver();
    renderLanding({ sections: [everyType[6]!] }, { [PLANS]: () => jsonResponse([buildPlan({ id: 2, name: "Ouro", amount: 4990 })]) });
    await screen.findByRole("heading", { level: 2, name: "Planos" });
    await viewport.scrollIntoView();

    await screen.findByRole("article", { name: "Ouro" });
    expect(screen.queryByRole("article", { name: "Enterprise" })).not.toBeInTheDocument();
  });

  it("shows the default welcome when the station configured no landing", async () => {
    renderLanding({}, { [PUBLIC_FEATURED_CALL]: () => jsonResponse([]) });

    expect(await screen.findByText(/Participe das atividades/)).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "Clube Filia Demo" })).toBeInTheDocument();
  });
});

describe("the card carousel", () => {
  it("shows 1 card on a phone, 2 on a tablet, 3 or 4 on a desktop", () => {
    expect(cardsPerView(375)).toBe(1);
    expect(cardsPerView(800)).toBe(2);
    expect(cardsPerView(1280)).toBe(3);
    expect(cardsPerView(1600)).toBe(4);
  });

  it("moves one card at a time with its buttons", async () => {
    vi.stubGlobal("innerWidth", 375);
    const items = [1, 2, 3].map((id) => buildItem({ id, name: `Parceiro ${id}` }));
    renderLanding({ sections: [buildSection({ type_id: 3, title: "Parceiros", items })] });

    const previous = await screen.findByRole("button", { name: "Anterior" });
    expect(previous).toBeDisabled();
    expect(screen.getByRole("heading", { name: "Parceiro 1" })).toBeVisible();
    expect(screen.queryByRole("heading", { name: "Parceiro 2" })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "Próximo" }));
    expect(screen.getByRole("heading", { name: "Parceiro 2" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Parceiro 1" })).not.toBeInTheDocument();
    expect(previous).toBeEnabled();
  });
});

const slides = [
  buildSlide({ id: 1, title: "Primeiro", link_type: "signup", button_label: "Quero participar" }),
  buildSlide({ id: 2, title: "Segundo", link_type: "external", external_link: "https://exemplo.com.br" }),
  buildSlide({ id: 3, title: "Terceiro" }),
];

const shownSlide = () => screen.getByRole("group", { name: /de 3/, hidden: false });

describe("the header slides", () => {
  it("rotate every 5 seconds, wrap, and are silent while rotating", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderLanding({ slides });
    await screen.findByRole("region", { name: "Apresentação" });

    expect(shownSlide()).toHaveTextContent("Primeiro");
    expect(screen.getByRole("link", { name: "Quero participar: Primeiro" })).toHaveAttribute("href", "/cadastrar");
    expect(document.querySelector(".header-slides__viewport")).toHaveAttribute("aria-live", "off");

    await act(() => vi.advanceTimersByTimeAsync(SLIDE_INTERVAL_MS));
    expect(shownSlide()).toHaveTextContent("Segundo");
    expect(screen.getByRole("link", { name: "Saiba mais: Segundo" })).toHaveAttribute("target", "_blank");
    await act(() => vi.advanceTimersByTimeAsync(2 * SLIDE_INTERVAL_MS));
    expect(shownSlide()).toHaveTextContent("Primeiro");
  });

  it("hold still under the pointer, once paused, and move by their buttons", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderLanding({ slides });
    const region = await screen.findByRole("region", { name: "Apresentação" });

    fireEvent.mouseEnter(region);
    await act(() => vi.advanceTimersByTimeAsync(2 * SLIDE_INTERVAL_MS));
    expect(shownSlide()).toHaveTextContent("Primeiro");
    expect(document.querySelector(".header-slides__viewport")).toHaveAttribute("aria-live", "polite");
    fireEvent.mouseLeave(region);

    fireEvent.click(screen.getByRole("button", { name: "Pausar apresentação" }));
    await act(() => vi.advanceTimersByTimeAsync(2 * SLIDE_INTERVAL_MS));
    expect(shownSlide()).toHaveTextContent("Primeiro");

    fireEvent.click(screen.getByRole("button", { name: "Slide anterior" }));
    expect(shownSlide()).toHaveTextContent("Terceiro");
    fireEvent.click(screen.getByRole("button", { name: "Próximo slide" }));
    expect(shownSlide()).toHaveTextContent("Primeiro");
    expect(screen.getByRole("button", { name: "Reproduzir apresentação" })).toBeInTheDocument();
  });

  it("stand still for visitors who ask for reduced motion, until played", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.stubGlobal(
      "matchMedia",
      vi.fn((query: string) => ({ matches: query.includes("reduce"), media: query })),
    );
    renderLanding({ slides });
    await screen.findByRole("region", { name: "Apresentação" });

    await act(() => vi.advanceTimersByTimeAsync(3 * SLIDE_INTERVAL_MS));
    expect(shownSlide()).toHaveTextContent("Primeiro");
    fireEvent.click(screen.getByRole("button", { name: "Reproduzir apresentação" }));
    await act(() => vi.advanceTimersByTimeAsync(SLIDE_INTERVAL_MS));
    expect(shownSlide()).toHaveTextContent("Segundo");
  });
});

describe("the landing's pictures", () => {
  const srcset = (name: string, original: number) =>
    `/api/media/${name}.480w.jpg 480w, /api/media/${name}.960w.jpg 960w, /api/media/${name}.png ${original}w`;

  it("offer their widths with sizes for their layout, lazily below the first slide", async () => {
    const { container } = renderLanding({
      slides: [
        buildSlide({ id: 1, image: "/api/media/s1.png", image_srcset: srcset("s1", 1200) }),
        buildSlide({ id: 2, title: "Segundo", image: "/api/media/s2.png", image_srcset: null }),
      ],
      sections: [
        buildSection({
          id: 1,
          type_id: 1,
          title: "Benefícios",
          items: [buildItem({ id: 11, name: "Cartão", image: "/api/media/c.png", image_srcset: srcset("c", 1200) })],
        }),
        buildSection({
          id: 2,
          type_id: 2,
          title: "Como funciona",
          items: [buildItem({ id: 21, name: "Bloco", image: "/api/media/b.png", image_srcset: srcset("b", 1200) })],
        }),
      ],
    });
    await screen.findByRole("heading", { level: 2, name: "Benefícios" });

    const first = container.querySelector('img[src="/api/media/s1.png"]')!;
    expect(first).toHaveAttribute("srcset", srcset("s1", 1200));
    expect(first).toHaveAttribute("sizes", "100vw");
    expect(first).toHaveAttribute("loading", "eager");
    expect(first).toHaveAttribute("fetchpriority", "high");
    expect(first).toHaveAttribute("decoding", "async");
    // No copies yet: the original alone, with no sizes.
    const second = container.querySelector('img[src="/api/media/s2.png"]')!;
    expect(second).not.toHaveAttribute("srcset");
    expect(second).not.toHaveAttribute("sizes");
    expect(second).toHaveAttribute("loading", "lazy");

    const card = screen.getByRole("region", { name: "Benefícios" }).querySelector(".landing-card img")!;
    expect(card).toHaveAttribute("srcset", srcset("c", 1200));
    expect(card).toHaveAttribute("sizes", "(min-width: 1440px) 25vw, (min-width: 1024px) 33vw, (min-width: 600px) 50vw, 100vw");
    expect(card).toHaveAttribute("loading", "lazy");
    const block = container.querySelector('img[src="/api/media/b.png"]')!;
    expect(block).toHaveAttribute("sizes", "(min-width: 768px) 50vw, 100vw");
  });

  it("put a section's background picture behind it, full width, with its widths", async () => {
    renderLanding({
      sections: [
        buildSection({
          id: 4,
          type_id: 4,
          title: "Nossa missão",
          background_type: "image",
          background_image: "/api/media/fundo.png",
          background_image_srcset: srcset("fundo", 1200),
        }),
      ],
    });
    const centred = await screen.findByRole("region", { name: "Nossa missão" });
    const background = centred.querySelector(".landing-section__background")!;
    expect(background).toHaveAttribute("srcset", srcset("fundo", 1200));
    expect(background).toHaveAttribute("sizes", "100vw");
    expect(background).toHaveAttribute("alt", "");
    expect(background).toHaveAttribute("loading", "lazy");
    expect(centred.style.backgroundImage).toBe("");
  });
});

describe("an about page", () => {
  it("shows its title and paragraphs as text", async () => {
    stubApi({
      [aboutCall(3)]: () => jsonResponse(buildAboutPage({ paragraphs: ["Somos um clube.", "<b>Desde 1990.</b>"] })),
    });
    renderApp({ path: "/sobre/3" });

    expect(await screen.findByRole("heading", { level: 1, name: "Quem somos" })).toBeInTheDocument();
    expect(screen.getByText("Somos um clube.")).toBeInTheDocument();
    expect(screen.getByText("<b>Desde 1990.</b>")).toBeInTheDocument();
  });

  it("offers its picture's widths for its column", async () => {
    const srcset = "/api/media/sobre.480w.jpg 480w, /api/media/sobre.png 640w";
    stubApi({
      [aboutCall(3)]: () => jsonResponse(buildAboutPage({ image: "/api/media/sobre.png", image_srcset: srcset })),
    });
    const { container } = renderApp({ path: "/sobre/3" });

    await screen.findByRole("heading", { level: 1, name: "Quem somos" });
    const picture = container.querySelector(".about-page__image")!;
    expect(picture).toHaveAttribute("srcset", srcset);
    expect(picture).toHaveAttribute("sizes", "(min-width: 704px) 704px, 100vw");
    expect(picture).toHaveAttribute("decoding", "async");
  });

  it("is not found when the station has no such page", async () => {
    stubApi({ [aboutCall(9)]: () => jsonResponse({ error: "Página não encontrada" }, 404) });
    renderApp({ path: "/sobre/9" });

    expect(await screen.findByRole("heading", { name: "Página não encontrada" })).toBeInTheDocument();
  });
});
