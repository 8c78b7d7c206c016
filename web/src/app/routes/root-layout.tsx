import { Outlet } from "react-router";
import { ConsentNotices } from "@/features/consent/components/consent-notices";

export function RootLayout() {
  return (
    <>
      <Outlet />
      <ConsentNotices />
    </>
  );
}
