// The query keys of a station's content.
export const contentKeys = {
  news: (stationId: number) => ["content", "news", stationId] as const,
  newsItem: (id: number) => ["content", "news-item", id] as const,
  downloads: (stationId: number) => ["content", "downloads", stationId] as const,
  download: (id: number) => ["content", "download", id] as const,
  transparency: (stationId: number) => ["content", "transparency", stationId] as const,
};
