-- The home's extras and the enterprise plan card (spec 001 "Home", spec 002 sections 2 and
-- 8, issue 30): two station settings the spec gives to single stations.

-- The home's shortcut tiles (/homepage/prestacao-de-contas and, as they are built, the
-- station's service pages).
ALTER TABLE stations ADD COLUMN home_shortcuts_access BOOLEAN NOT NULL DEFAULT false;
-- The Enterprise card beside the plans: the landing's plans section (to /suporte-enterprise)
-- and /homepage/planos (to /homepage/planos/sobconsulta).
ALTER TABLE stations ADD COLUMN enterprise_plan_access BOOLEAN NOT NULL DEFAULT false;
