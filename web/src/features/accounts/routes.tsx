// Login, token login, activation, password recovery and sign-up screens, each loaded when
// first opened.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";
import { signupRoutes } from "@/features/accounts/signup/routes";

export const accountRoutes: RouteObject[] = [
  {
    path: "login",
    element: lazyScreen(async () => (await import("@/features/accounts/components/login-page")).LoginPage),
  },
  {
    path: "login-token/:token",
    element: lazyScreen(async () => (await import("@/features/accounts/components/login-token-page")).LoginTokenPage),
  },
  {
    path: "confirmacao/:email",
    element: lazyScreen(async () => (await import("@/features/accounts/components/confirmation-page")).ConfirmationPage),
  },
  // The link's token and the 6-digit code share this route (/ativar/{hashCode}/{email}).
  {
    path: "ativar/:hash/:email",
    element: lazyScreen(async () => (await import("@/features/accounts/components/activation-link-page")).ActivationLinkPage),
  },
  {
    path: "esqueci-minha-senha",
    element: lazyScreen(async () => (await import("@/features/accounts/components/forgot-password-page")).ForgotPasswordPage),
  },
  {
    path: "redefinir-senha/:userHash/:userEmail",
    element: lazyScreen(async () => (await import("@/features/accounts/components/reset-password-page")).ResetPasswordPage),
  },
  ...signupRoutes,
];
