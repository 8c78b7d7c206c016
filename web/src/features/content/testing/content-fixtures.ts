// A station's content as its calls answer it, for the demo station (id 7).
import type { Download, DownloadCard, News, NewsCard, TransparencyDocument } from "@/types/api";

export const NEWS_PAGE_CALL = (offset = 0, limit = 12) => `GET /api/news/?where[station_id]=7&limit=${limit}&offset=${offset}`;
export const DOWNLOADS_PAGE_CALL = (offset = 0, limit = 20) => `GET /api/downloads/?where[station_id]=7&limit=${limit}&offset=${offset}`;
export const TRANSPARENCY_PAGE_CALL = (offset = 0, limit = 50) => `GET /api/transparency?limit=${limit}&offset=${offset}`;
export const WALLET_CALL = "GET /api/users-points/1";

export function buildNewsCard(overrides: Partial<NewsCard> = {}): NewsCard {
  return {
    id: 1,
    title: "Assembleia geral",
    subtitle: "Participe e vote",
    image: "/api/media/news/7/assembleia.png",
    image_srcset: null,
    published_at: "2026-12-05T12:00:00Z",
    ...overrides,
  };
}

export function buildNews(overrides: Partial<News> = {}): News {
  return { ...buildNewsCard(), body: "<p>Na sede, às <strong>19h</strong>.</p>", ...overrides };
}

export function buildDownloadCard(overrides: Partial<DownloadCard> = {}): DownloadCard {
  return {
    id: 1,
    name: "estatuto-social",
    title: "Estatuto Social",
    subtitle: "Versão aprovada",
    description: "O estatuto do clube.",
    file: "/api/media/downloads/7/estatuto.pdf",
    content_type: "application/pdf",
    size: 245_000,
    private: false,
    published_at: "2026-12-01T12:00:00Z",
    ...overrides,
  };
}

export function buildDownload(overrides: Partial<Download> = {}): Download {
  return { ...buildDownloadCard(), body: "<p>Leia com atenção.</p>", ...overrides };
}

export function buildDocument(overrides: Partial<TransparencyDocument> = {}): TransparencyDocument {
  return {
    id: 1,
    nome: "Balancete - 2025",
    year: "2025",
    anexo: { url: "/api/media/transparency/7/balancete-2025.pdf", content_type: "application/pdf" },
    ...overrides,
  };
}
