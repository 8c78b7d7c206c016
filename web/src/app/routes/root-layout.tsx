import { Outlet } from "react-router";
import { ConsentNotices } from "@/features/consent/components/consent-notices";
import { SessionWatch } from "@/features/session/components/session-watch";

export function RootLayout() {
  return (
    <>
      <SessionWatch />
      <Outlet />
      <ConsentNotices />
    </>
  );
}
