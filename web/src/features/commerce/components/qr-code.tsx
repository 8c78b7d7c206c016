// A QR code drawn in the browser as SVG (uqr: encoding only, no canvas, no network). Only
// the shop's screens load it (the PIX screen, the voucher dialog, the validator), in their
// own chunks.
import { encode } from "uqr";

interface QrCodeProps {
  value: string;
  /** What the code is, for screen readers. */
  label: string;
  className?: string;
}

/** One path of unit squares, one per dark module: crisp at any size. */
function modulesPath(data: boolean[][]): string {
  const parts: string[] = [];
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
    });
  });
  return parts.join("");
}

export function QrCode({ value, label, className }: QrCodeProps) {
  const { size, data } = encode(value, { ecc: "M", border: 2 });
  return (
    <svg
      className={className}
      role="img"
      aria-label={label}
      data-qr-value={value}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      xmlns="http://www.w3.org/2000/svg"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={modulesPath(data)} fill="#000" />
    </svg>
  );
}
