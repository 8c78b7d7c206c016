// Type 21's form, loaded when an activity page of that type first shows it.
import { lazy, Suspense } from "react";
import type { Activity } from "@/types/api";

const Body = lazy(async () => ({
  default: (await import("@/features/subscriptions/components/product-subscription-body")).ProductSubscriptionBody,
}));

export function ProductSubscriptionBody({ activity }: { activity: Activity }) {
  return (
    <Suspense fallback={null}>
      <Body activity={activity} />
    </Suspense>
  );
}
