// The member's wallet pages, children of /homepage.
import type { RouteObject } from "react-router";
import { StatementPage } from "@/features/wallet/components/statement-page";

export const walletMemberRoutes: RouteObject[] = [{ path: "extrato/extratos-totais", element: <StatementPage /> }];
