import { Outlet, useNavigation } from "react-router";
import { LoadingPage } from "@/components/loading-page";
import { ConsentNotices } from "@/features/consent";
import { SessionWatch } from "@/features/session";

export function RootLayout() {
  // Screens are loaded when first opened (route `lazy`); the router is "loading" meanwhile.
  const loading = useNavigation().state === "loading";
  return (
    <>
      <SessionWatch />
      {loading ? <LoadingPage /> : <Outlet />}
      <ConsentNotices />
    </>
  );
}
