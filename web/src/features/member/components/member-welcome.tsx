import { useSession } from "@/features/session";

export function MemberWelcome() {
  const user = useSession()?.user;

  return (
    <section>
      <h1 className="member-welcome__title">Olá, {user?.name}!</h1>
      <p className="member-welcome__text">Que bom ter você por aqui.</p>
    </section>
  );
}
