// Sign-up (/cadastrar), the onboarding wizard (/signup) and the company creator, each loaded
// when first opened.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

const signUp = async () => (await import("@/features/accounts/signup/components/sign-up-route")).SignUpRoute;
const onboarding = async () => (await import("@/features/accounts/signup/onboarding/onboarding-route")).OnboardingRoute;

export const signupRoutes: RouteObject[] = [
  { path: "cadastrar", element: lazyScreen(signUp) },
  { path: "cadastrar/:codeMgm", element: lazyScreen(signUp) },
  { path: "signup", element: lazyScreen(onboarding) },
  { path: "signup/:codeMgm", element: lazyScreen(onboarding) },
  // The spec names no route for the company creator (docs/decisions.md).
  {
    path: "cadastrar-empresa",
    element: lazyScreen(async () => (await import("@/features/accounts/signup/company/company-wizard")).CompanyWizard),
  },
];
