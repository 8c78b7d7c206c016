// The activities' react-query keys, per member (the answers carry the caller's progress).
export const activityKeys = {
  all: ["activities"] as const,
  featured: (stationId: number, userId: number) => ["activities", "featured", stationId, userId] as const,
  nowPlaying: (userId: number) => ["activities", "now-playing", userId] as const,
  journeys: (userId: number) => ["activities", "journeys", userId] as const,
  categories: (stationId: number, userId: number) => ["activities", "categories", stationId, userId] as const,
  category: (stationId: number, userId: number, id: string) =>
    ["activities", "categories", stationId, userId, id] as const,
  carousel: (stationId: number, userId: number, categoryId: number) =>
    ["activities", "carousel", stationId, userId, categoryId] as const,
  list: (stationId: number, userId: number) => ["activities", "list", stationId, userId] as const,
  search: (stationId: number, userId: number, term: string) => ["activities", "search", stationId, userId, term] as const,
  detail: (userId: number, id: string) => ["activities", "detail", userId, id] as const,
  publicDetail: (stationId: number, id: string) => ["activities", "public", stationId, id] as const,
  publicFeatured: (stationId: number) => ["activities", "public-featured", stationId] as const,
  lottie: (id: number) => ["activities", "lottie", id] as const,
};
