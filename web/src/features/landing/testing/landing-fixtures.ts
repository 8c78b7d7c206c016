// The landing's test data: the calls of station 7 (the test station) and their answers.
import type { AboutPage, Landing, LandingItem, LandingSection, LandingSlide } from "@/types/api";

export const LANDING_CALL = "GET /api/stations/7/landing";
export const aboutCall = (id: number) => `GET /api/station-about-participant/${id}/7`;

export const EMPTY_LANDING: Landing = { slides: [], sections: [], about_pages: [] };

export function buildSlide(overrides: Partial<LandingSlide> = {}): LandingSlide {
  return {
    id: 1,
    title: "Bem-vindo ao clube",
    subtitle: null,
    image: "/api/media/landing/slide-1.png",
    image_srcset: null,
    link_type: "nolink",
    external_link: null,
    about_page_id: null,
    button_label: null,
    ...overrides,
  };
}

export function buildItem(overrides: Partial<LandingItem> = {}): LandingItem {
  return {
    id: 1,
    name: "Item",
    description: null,
    image: null,
    image_srcset: null,
    video: null,
    video_id: null,
    link_type: "nolink",
    external_link: null,
    about_page_id: null,
    button_label: null,
    image_left: false,
    ...overrides,
  };
}

export function buildSection(overrides: Partial<LandingSection> = {}): LandingSection {
  return {
    id: 1,
    type_id: 1,
    title: "Seção",
    subtitle: null,
    title_color: null,
    text_color: null,
    background_type: "color",
    background_image: null,
    background_image_srcset: null,
    background_color: null,
    items: [],
    ...overrides,
  };
}

export function buildAboutPage(overrides: Partial<AboutPage> = {}): AboutPage {
  return {
    id: 3,
    station_id: 7,
    title: "Quem somos",
    paragraphs: ["Somos um clube.", "Desde 1990."],
    image: null,
    image_srcset: null,
    ...overrides,
  };
}
