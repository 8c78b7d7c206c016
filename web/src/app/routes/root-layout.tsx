import { Outlet } from "react-router";
import { ConsentNotices } from "@/features/consent";
import { SessionWatch } from "@/features/session";

export function RootLayout() {
  return (
    <>
      <SessionWatch />
      <Outlet />
      <ConsentNotices />
    </>
  );
}
