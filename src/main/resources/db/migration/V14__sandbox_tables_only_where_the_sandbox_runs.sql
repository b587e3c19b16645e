-- The sandbox providers' tables (V2, V3) belong to the dev, test and demo profiles, where the sandbox
-- runs: elsewhere they go, empty as they are there. The placeholder sandbox is true in those profiles only.
DO $$
BEGIN
    IF NOT ${sandbox} THEN
        DROP TABLE IF EXISTS sandbox_calls;
        DROP TABLE IF EXISTS sandbox_effects;
    END IF;
END
$$;
