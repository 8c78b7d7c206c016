// Vouchers as spec 002 section 4 reads them: `validated` '0' is unused; anything else, used.
import type { Voucher } from "@/types/api";

export const UNUSED_VOUCHER = "0";

export function isVoucherUsed(voucher: Pick<Voucher, "validated">): boolean {
  return voucher.validated !== UNUSED_VOUCHER;
}
