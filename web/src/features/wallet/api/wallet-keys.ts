// The wallet's react-query keys, under one root per member so anything that credits can
// refresh the balance, both statement tabs and the debts at once.
export const walletKeys = {
  all: (userId: number) => ["wallet", userId] as const,
  balance: (userId: number) => ["wallet", userId, "balance"] as const,
  earned: (userId: number) => ["wallet", userId, "earned"] as const,
  spent: (userId: number) => ["wallet", userId, "spent"] as const,
  debts: (userId: number) => ["wallet", userId, "debts"] as const,
};

// Money put into the wallet, under a root of its own: a credit refreshes the wallet's keys,
// and a top-up's own read (which may be what saw the credit) is not asked again by it.
export const topUpKeys = {
  settings: (userId: number) => ["wallet-topups", userId, "settings"] as const,
  topUp: (userId: number, id: number) => ["wallet-topups", userId, "topup", id] as const,
  transferRequests: (userId: number) => ["wallet-topups", userId, "transfer-requests"] as const,
};
