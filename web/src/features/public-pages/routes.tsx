// Pages open to anyone: legal texts, QR validation, deep links, share redirect, mailing list;
// each loaded when first opened.
import type { RouteObject } from "react-router";

const mailingList = async () => (await import("@/features/public-pages/components/mailing-list-page")).MailingListPage;

export const publicPageRoutes: RouteObject[] = [
  {
    path: "termos-de-uso",
    lazy: async () => ({
      Component: (await import("@/features/public-pages/components/terms-of-use-page")).TermsOfUsePage,
    }),
  },
  {
    path: "politica-de-privacidade",
    lazy: async () => ({
      Component: (await import("@/features/public-pages/components/privacy-policy-page")).PrivacyPolicyPage,
    }),
  },
  {
    path: "qr-code-user-validator/:id",
    lazy: async () => ({
      Component: (await import("@/features/public-pages/components/qr-code-user-validator-page"))
        .QrCodeUserValidatorPage,
    }),
  },
  {
    path: "deep-link/:resource/:type/:actionId",
    lazy: async () => ({ Component: (await import("@/features/public-pages/components/deep-link-page")).DeepLinkPage }),
  },
  {
    path: "compartilhamento",
    lazy: async () => ({
      Component: (await import("@/features/public-pages/components/share-redirect-page")).ShareRedirectPage,
    }),
  },
  // Any other first segment under /email falls through to the not-found page.
  {
    path: "email/inscricao/:userId/:userHash",
    lazy: async () => {
      const MailingListPage = await mailingList();
      return { element: <MailingListPage action="subscribe" /> };
    },
  },
  {
    path: "email/desinscricao/:userId/:userHash",
    lazy: async () => {
      const MailingListPage = await mailingList();
      return { element: <MailingListPage action="unsubscribe" /> };
    },
  },
];
