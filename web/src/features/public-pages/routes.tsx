// Pages open to anyone: legal texts, QR validation, deep links, share redirect, mailing list.
import type { RouteObject } from "react-router";
import { DeepLinkPage } from "@/features/public-pages/components/deep-link-page";
import { MailingListPage } from "@/features/public-pages/components/mailing-list-page";
import { PrivacyPolicyPage } from "@/features/public-pages/components/privacy-policy-page";
import { QrCodeUserValidatorPage } from "@/features/public-pages/components/qr-code-user-validator-page";
import { ShareRedirectPage } from "@/features/public-pages/components/share-redirect-page";
import { TermsOfUsePage } from "@/features/public-pages/components/terms-of-use-page";

export const publicPageRoutes: RouteObject[] = [
  { path: "termos-de-uso", element: <TermsOfUsePage /> },
  { path: "politica-de-privacidade", element: <PrivacyPolicyPage /> },
  { path: "qr-code-user-validator/:id", element: <QrCodeUserValidatorPage /> },
  { path: "deep-link/:resource/:type/:actionId", element: <DeepLinkPage /> },
  { path: "compartilhamento", element: <ShareRedirectPage /> },
  // Any other first segment under /email falls through to the not-found page.
  { path: "email/inscricao/:userId/:userHash", element: <MailingListPage action="subscribe" /> },
  { path: "email/desinscricao/:userId/:userHash", element: <MailingListPage action="unsubscribe" /> },
];
