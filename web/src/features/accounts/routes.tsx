// Login, token login, activation and password recovery screens, each loaded when first opened.
import type { RouteObject } from "react-router";

export const accountRoutes: RouteObject[] = [
  {
    path: "login",
    lazy: async () => ({ Component: (await import("@/features/accounts/components/login-page")).LoginPage }),
  },
  {
    path: "login-token/:token",
    lazy: async () => ({ Component: (await import("@/features/accounts/components/login-token-page")).LoginTokenPage }),
  },
  {
    path: "confirmacao/:email",
    lazy: async () => ({
      Component: (await import("@/features/accounts/components/confirmation-page")).ConfirmationPage,
    }),
  },
  // The link's token and the 6-digit code share this route (/ativar/{hashCode}/{email}).
  {
    path: "ativar/:hash/:email",
    lazy: async () => ({
      Component: (await import("@/features/accounts/components/activation-link-page")).ActivationLinkPage,
    }),
  },
  {
    path: "esqueci-minha-senha",
    lazy: async () => ({
      Component: (await import("@/features/accounts/components/forgot-password-page")).ForgotPasswordPage,
    }),
  },
  {
    path: "redefinir-senha/:userHash/:userEmail",
    lazy: async () => ({
      Component: (await import("@/features/accounts/components/reset-password-page")).ResetPasswordPage,
    }),
  },
];
