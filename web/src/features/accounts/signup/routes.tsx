// Sign-up (/cadastrar), the onboarding wizard (/signup) and the company creator, each loaded
// when first opened.
import type { RouteObject } from "react-router";

const signUp = async () => ({ Component: (await import("@/features/accounts/signup/components/sign-up-route")).SignUpRoute });
const onboarding = async () => ({
  Component: (await import("@/features/accounts/signup/onboarding/onboarding-route")).OnboardingRoute,
});

export const signupRoutes: RouteObject[] = [
  { path: "cadastrar", lazy: signUp },
  { path: "cadastrar/:codeMgm", lazy: signUp },
  { path: "signup", lazy: onboarding },
  { path: "signup/:codeMgm", lazy: onboarding },
  // The spec names no route for the company creator (docs/decisions.md).
  {
    path: "cadastrar-empresa",
    lazy: async () => ({ Component: (await import("@/features/accounts/signup/company/company-wizard")).CompanyWizard }),
  },
];
