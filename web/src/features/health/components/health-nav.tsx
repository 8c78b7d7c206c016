// The way back to the health landing from its sub-pages.
import { Link } from "react-router";
import { HEALTH_PATH } from "@/features/health/services";

export const BACK_TO_HEALTH_TEXT = "Voltar para Saúde";

export function BackToHealth() {
  return (
    <Link className="health-back" to={HEALTH_PATH}>
      {BACK_TO_HEALTH_TEXT}
    </Link>
  );
}
