// The wallet's react-query keys, under one root per member so anything that credits can
// refresh the balance, both statement tabs and the debts at once.
export const walletKeys = {
  all: (userId: number) => ["wallet", userId] as const,
  balance: (userId: number) => ["wallet", userId, "balance"] as const,
  earned: (userId: number) => ["wallet", userId, "earned"] as const,
  spent: (userId: number) => ["wallet", userId, "spent"] as const,
  debts: (userId: number) => ["wallet", userId, "debts"] as const,
};
