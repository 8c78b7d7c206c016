import { Outlet } from "react-router";
import { BlockedAccountModal } from "@/features/member/components/blocked-account-modal";
import { MemberTopBar } from "@/features/member/components/member-top-bar";
import { useSession } from "@/features/session";
import "./member-layout.css";

/** The member area's frame; a user flagged as deleted sees it only behind the blocked-account modal. */
export function MemberLayout() {
  const isBlocked = useSession()?.user.deletedAt != null;

  return (
    <div className="member-layout">
      {/* A suspended account only sees the modal's way out: no balance is asked for. */}
      <MemberTopBar showBalance={!isBlocked} />
      <main className="member-layout__content">
        <Outlet />
      </main>
      {isBlocked && <BlockedAccountModal />}
    </div>
  );
}
