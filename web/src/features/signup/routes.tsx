// Sign-up (/cadastrar), the onboarding wizard (/signup) and the company creator.
import type { RouteObject } from "react-router";
import { CompanyWizard } from "@/features/signup/company/company-wizard";
import { SignUpRoute } from "@/features/signup/components/sign-up-route";
import { OnboardingRoute } from "@/features/signup/onboarding/onboarding-route";

export const signupRoutes: RouteObject[] = [
  { path: "cadastrar", element: <SignUpRoute /> },
  { path: "cadastrar/:codeMgm", element: <SignUpRoute /> },
  { path: "signup", element: <OnboardingRoute /> },
  { path: "signup/:codeMgm", element: <OnboardingRoute /> },
  // The spec names no route for the company creator (docs/decisions.md).
  { path: "cadastrar-empresa", element: <CompanyWizard /> },
];
