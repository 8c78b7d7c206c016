import { useRoutes, type RouteObject } from "react-router";
import { NotFoundPage } from "@/components/not-found-page";
import { accountsMemberRoutes } from "@/features/accounts";
import { activitiesMemberRoutes } from "@/features/activities";
import { calendarMemberRoutes } from "@/features/calendar/routes";
import { commerceMemberRoutes } from "@/features/commerce/routes";
import { contentMemberRoutes } from "@/features/content/routes";
import { feedMemberRoutes } from "@/features/feed/routes";
import { fuelMemberRoutes } from "@/features/fuel/routes";
import { healthMemberRoutes } from "@/features/health/routes";
import { invitationsMemberRoutes } from "@/features/invitations/routes";
import { luckyNumbersMemberRoutes } from "@/features/lucky-numbers/routes";
import { MemberLayout } from "@/features/member/components/member-layout";
import { SearchStartPage } from "@/features/member/components/search-start-page";
import { paymentMethodsMemberRoutes } from "@/features/payment-methods/routes";
import { serviceMemberRoutes } from "@/features/services/routes";
import { politicalMemberRoutes } from "@/features/political/routes";
import { subscriptionsMemberRoutes } from "@/features/subscriptions";
import { supportMemberRoutes } from "@/features/support";
import { trophiesMemberRoutes } from "@/features/trophies/routes";
import { walletMemberRoutes } from "@/features/wallet/routes";

/** The member area's screens, relative to /homepage, each loaded when first opened. */
const routes: RouteObject[] = [
  {
    element: <MemberLayout />,
    children: [
      ...activitiesMemberRoutes,
      // The search form itself; its results are the activities' search/:term.
      { path: "search", element: <SearchStartPage /> },
      ...accountsMemberRoutes,
      ...walletMemberRoutes,
      ...paymentMethodsMemberRoutes,
      ...commerceMemberRoutes,
      ...trophiesMemberRoutes,
      ...invitationsMemberRoutes,
      ...luckyNumbersMemberRoutes,
      ...feedMemberRoutes,
      ...subscriptionsMemberRoutes,
      ...calendarMemberRoutes,
      ...fuelMemberRoutes,
      ...serviceMemberRoutes,
      ...healthMemberRoutes,
      ...politicalMemberRoutes,
      ...contentMemberRoutes,
      ...supportMemberRoutes,
    ],
  },
  { path: "*", element: <NotFoundPage /> },
];

export function MemberArea() {
  return useRoutes(routes);
}
