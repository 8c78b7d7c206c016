import { Link } from "react-router";
import { useWalletBalance } from "@/features/wallet/api/get-balance";
import { useStation } from "@/features/stations";
import { formatStationAmount } from "@/lib/currency";
import "./header-balance.css";

export const STATEMENT_PATH = "/homepage/extrato/extratos-totais";

/**
 * The member's balance in the top bar, linking to the statement where the station's menu
 * has it; nothing while it loads or when it could not be read.
 */
export function HeaderBalance({ linksToStatement, className = "" }: { linksToStatement: boolean; className?: string }) {
  const station = useStation();
  const { data } = useWalletBalance();
  if (data === undefined) return null;

  const content = (
    <>
      <span className="header-balance__label">Saldo</span>{" "}
      <span className="header-balance__amount">{formatStationAmount(data.points_cents, station)}</span>
    </>
  );
  return linksToStatement ? (
    <Link to={STATEMENT_PATH} className={`header-balance ${className}`}>
      {content}
    </Link>
  ) : (
    <p className={`header-balance ${className}`}>{content}</p>
  );
}
