// /planos/{id}'s route element. The entry lists the files of every public screen it may
// load, and the first load of every page pays for those names (scripts/check-bundle-size.js):
// this small chunk stands for the plan page, which brings its own shared chunks when opened.
import { lazy, Suspense } from "react";
import { LoadingPage } from "@/components/loading-page";

const PublicPlanPage = lazy(async () => ({
  default: (await import("@/features/subscriptions/components/public-plan-page")).PublicPlanPage,
}));

export function PublicPlanRoute() {
  return (
    <Suspense fallback={<LoadingPage />}>
      <PublicPlanPage />
    </Suspense>
  );
}
