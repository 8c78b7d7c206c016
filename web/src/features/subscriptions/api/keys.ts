// The query keys of plans and subscriptions: the member's under their id, so a change of
// session never reads another member's; the station's plans are the same for everyone.
export const subscriptionKeys = {
  plans: () => ["subscription-plans"] as const,
  plan: (id: number) => ["subscription-plans", id] as const,
  member: (userId: number) => ["subscriptions", userId] as const,
  current: (userId: number) => [...subscriptionKeys.member(userId), "current"] as const,
  charges: (userId: number) => [...subscriptionKeys.member(userId), "charges"] as const,
  subscribedActions: (userId: number) => [...subscriptionKeys.member(userId), "subscribed-actions"] as const,
  cards: (userId: number) => [...subscriptionKeys.member(userId), "cards"] as const,
  products: (userId: number, actionId: number) => [...subscriptionKeys.member(userId), "products", actionId] as const,
  lastOfAction: (userId: number, actionId: number) => [...subscriptionKeys.member(userId), "last-of-action", actionId] as const,
};
