-- A fourth role, admin: staff who also manage the users from the console (/console/users). An admin is staff
-- as well (shared.security.AdminsAreStaff gives the identity both roles), so one row keeps one role.
ALTER TABLE users DROP CONSTRAINT ck_users_role;
ALTER TABLE users ADD CONSTRAINT ck_users_role CHECK (role IN ('customer', 'staff', 'admin', 'metrics'));
