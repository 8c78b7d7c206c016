// /validador/{code} (a voucher's QR code) and /validador/pedido/{code} (a receipt's): one
// route, so the app's first load carries one entry for both; this picks the page.
import { useParams } from "react-router";
import { NotFoundPage } from "@/components/not-found-page";
import { OrderValidatorPage } from "@/features/public-pages/components/order-validator-page";
import { VoucherValidatorPage } from "@/features/public-pages/components/voucher-validator-page";

export function ValidatorPage() {
  const { first = "", code } = useParams();
  if (code === undefined) return <VoucherValidatorPage code={first} />;
  if (first === "pedido") return <OrderValidatorPage code={code} />;
  return <NotFoundPage />;
}
