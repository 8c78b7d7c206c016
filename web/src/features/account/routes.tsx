// Login, token login, activation and password recovery screens.
import type { RouteObject } from "react-router";
import { ActivationLinkPage } from "@/features/account/components/activation-link-page";
import { ConfirmationPage } from "@/features/account/components/confirmation-page";
import { ForgotPasswordPage } from "@/features/account/components/forgot-password-page";
import { LoginPage } from "@/features/account/components/login-page";
import { LoginTokenPage } from "@/features/account/components/login-token-page";
import { ResetPasswordPage } from "@/features/account/components/reset-password-page";

export const accountRoutes: RouteObject[] = [
  { path: "login", element: <LoginPage /> },
  { path: "login-token/:token", element: <LoginTokenPage /> },
  { path: "confirmacao/:email", element: <ConfirmationPage /> },
  // The link's token and the 6-digit code share this route (/ativar/{hashCode}/{email}).
  { path: "ativar/:hash/:email", element: <ActivationLinkPage /> },
  { path: "esqueci-minha-senha", element: <ForgotPasswordPage /> },
  { path: "redefinir-senha/:userHash/:userEmail", element: <ResetPasswordPage /> },
];
