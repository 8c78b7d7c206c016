import { useStation } from "@/features/stations/station-context";

/** The station's logo, or its name where it has none. */
export function StationLogo({ className }: { className?: string }) {
  const station = useStation();
  if (!station.logo_image) return <span className={className}>{station.name}</span>;
  return <img className={className} src={station.logo_image} alt={station.name} />;
}
