// Pages open to anyone: legal texts, QR validation, deep links, share redirect, mailing list;
// each loaded when first opened.
import type { RouteObject } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";

const mailingList = async () => (await import("@/features/public-pages/components/mailing-list-page")).MailingListPage;

export const publicPageRoutes: RouteObject[] = [
  {
    path: "termos-de-uso",
    element: lazyScreen(async () => (await import("@/features/public-pages/components/terms-of-use-page")).TermsOfUsePage),
  },
  {
    path: "politica-de-privacidade",
    element: lazyScreen(async () => (await import("@/features/public-pages/components/privacy-policy-page")).PrivacyPolicyPage),
  },
  {
    path: "qr-code-user-validator/:id",
    element: lazyScreen(async () => (await import("@/features/public-pages/components/qr-code-user-validator-page")).QrCodeUserValidatorPage),
  },
  {
    // Where a voucher's QR code (validador/{code}) and a receipt's (validador/pedido/{code})
    // lead, on a partner's host or the station's: one entry, so the first load stays small.
    path: "validador/:first/:code?",
    element: lazyScreen(async () => (await import("@/features/public-pages/components/validator-page")).ValidatorPage),
  },
  {
    path: "deep-link/:resource/:type/:actionId",
    element: lazyScreen(async () => (await import("@/features/public-pages/components/deep-link-page")).DeepLinkPage),
  },
  {
    path: "compartilhamento",
    element: lazyScreen(async () => (await import("@/features/public-pages/components/share-redirect-page")).ShareRedirectPage),
  },
  {
    path: "convites/descadastrar",
    element: lazyScreen(
      async () => (await import("@/features/public-pages/components/invitation-unsubscribe-page")).InvitationUnsubscribePage,
    ),
  },
  // Any other first segment under /email falls through to the not-found page.
  {
    path: "email/inscricao/:userId/:userHash",
    element: lazyScreen(async () => {
      const MailingListPage = await mailingList();
      return () => <MailingListPage action="subscribe" />;
    }),
  },
  {
    path: "email/desinscricao/:userId/:userHash",
    element: lazyScreen(async () => {
      const MailingListPage = await mailingList();
      return () => <MailingListPage action="unsubscribe" />;
    }),
  },
];
